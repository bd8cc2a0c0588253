import { Paper, Stack, Title, type StackProps, type TitleOrder, type TitleSize } from '@mantine/core';
import { useId, type ReactNode } from 'react';

/** A bordered section named by its own heading (level 3 unless told). */
export function Panel({
  title,
  order = 3,
  size,
  align,
  children,
}: {
  title: string;
  order?: TitleOrder;
  size?: TitleSize;
  align?: StackProps['align'];
  children: ReactNode;
}) {
  const headingId = useId();
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={headingId}>
      <Stack gap="sm" align={align}>
        <Title order={order} size={size} id={headingId}>
          {title}
        </Title>
        {children}
      </Stack>
    </Paper>
  );
}
