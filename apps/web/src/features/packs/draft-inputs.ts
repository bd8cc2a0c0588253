import type { UseFormReturnType } from '@mantine/form';
import type { DraftValues } from './draft-form';

export type DraftForm = UseFormReturnType<DraftValues>;

/** The Select value that stands for an optional key left out of the document. */
export const NONE = 'none';

/** Props of a Select for an optional key: "none" sets it undefined, which the JSON body leaves out. */
export function optionalSelectProps(form: DraftForm, path: string) {
  const props = form.getInputProps(path);
  return {
    ...props,
    value: (props.value as string | undefined) ?? NONE,
    onChange: (value: string | null) =>
      form.setFieldValue(path, value === null || value === NONE ? undefined : value),
  };
}

/** Props of a text input for an optional key: an empty text sets it undefined, so the body leaves it out. */
export function optionalTextProps(form: DraftForm, path: string) {
  const props = form.getInputProps(path);
  return {
    ...props,
    value: (props.value as string | undefined) ?? '',
    onChange: (event: { currentTarget: { value: string } }) =>
      form.setFieldValue(path, event.currentTarget.value === '' ? undefined : event.currentTarget.value),
  };
}

/** Props of a NumberInput: a cleared input sets it undefined (left out of the body), not an empty string. */
export function numberProps(form: DraftForm, path: string) {
  const props = form.getInputProps(path);
  return {
    ...props,
    value: typeof props.value === 'number' ? props.value : '',
    onChange: (value: number | string) =>
      form.setFieldValue(path, typeof value === 'number' ? value : undefined),
  };
}
