/**
 * Mantine 9 keeps a closed Select's listbox mounted (hidden) and labelled by the Select's label, so
 * "the field labelled Pack" would name two elements; mounting it only while open keeps it to one.
 */
export const ONE_LISTBOX = { keepMounted: false };
