import { Button, Grid, NumberInput, Select, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState, type FormEvent } from 'react';
import { ApiError, type Schemas } from '../../api/client';
import { useStartShadowRun } from '../../api/queries/shadow';
import { versionLabel } from '../../lib/versions';
import { ONE_LISTBOX } from '../../ui/listbox';
import { ErrorNotice } from '../../ui/states';
import { DEFAULT_SAMPLE_PERCENT, START_FIELDS, startBody, type ShadowForm } from './shadow';

/** The Select's value for the draft: no `versionId` is sent, and the API freezes the draft. */
const DRAFT = 'draft';

/**
 * Starts a shadow run: the draft (frozen when the run starts) or a published version, the share of
 * live traffic to judge again, and an optional cap. Disabled while the pack has an active run.
 */
export function ShadowStartForm({
  pack,
  versions,
  active,
  onStarted,
}: {
  pack: Schemas['PackDto'];
  versions: Schemas['PackVersionDto'][];
  /** The pack has an active run: only one at a time. */
  active: boolean;
  onStarted: (run: Schemas['ShadowRunDto']) => void;
}) {
  const [form, setForm] = useState<ShadowForm>({
    versionId: null,
    percent: DEFAULT_SAMPLE_PERCENT,
    maxJudgments: '',
  });
  const start = useStartShadowRun(pack.id, {
    onSuccess: (run) => {
      notifications.show({ color: 'green', message: 'Shadow run started' });
      onStarted(run);
    },
  });
  const parsed = startBody(form);
  /** What is not a number, else the server's issue for the field's body field. */
  const fieldError = (field: keyof typeof START_FIELDS) => {
    if (!parsed.ok) return parsed.field === field ? parsed.error : undefined;
    return start.error instanceof ApiError ? start.error.issueFor(START_FIELDS[field]) : undefined;
  };
  /** An edit forgets the last refusal, whose issues were about the values before it. */
  const edit = (change: Partial<ShadowForm>) => {
    start.reset();
    setForm({ ...form, ...change });
  };
  const published = versions.filter((version) => version.publishedAt !== null);
  const options = [
    { value: DRAFT, label: 'Draft (frozen when the run starts)' },
    ...published.map((version) => ({
      value: version.id,
      label: versionLabel(versions, version, pack.liveVersionId),
    })),
  ];

  function submit(event: FormEvent) {
    event.preventDefault();
    if (parsed.ok && !active) start.mutate(parsed.body);
  }

  return (
    <form onSubmit={submit} aria-label="Start a shadow run">
      <Stack gap="sm">
        <Text size="sm">
          While the run is active, a share of this pack’s live traffic (API, webhooks, MCP) is judged again by
          the version you pick, on the worker, and the two judgments are compared. Nothing live changes: the
          live answers, statuses, deliveries and review queue stay as they are. Each sampled ticket costs one
          more model call, so set a cap to bound what the run spends.
        </Text>
        <Grid gap="sm">
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <Select
              comboboxProps={ONE_LISTBOX}
              label="Version to try"
              data={options}
              value={form.versionId ?? DRAFT}
              onChange={(value) => edit({ versionId: value === DRAFT ? null : value })}
              allowDeselect={false}
              disabled={active}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 6, sm: 3 }}>
            <NumberInput
              label="Sample rate"
              description="Share of live tickets"
              suffix="%"
              step={1}
              decimalScale={4}
              value={form.percent}
              onChange={(percent) => edit({ percent })}
              disabled={active}
              error={fieldError('percent')}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 6, sm: 3 }}>
            <NumberInput
              label="Max judgments"
              description="Optional cap"
              step={1}
              value={form.maxJudgments}
              onChange={(maxJudgments) => edit({ maxJudgments })}
              disabled={active}
              error={fieldError('maxJudgments')}
            />
          </Grid.Col>
        </Grid>
        {start.error && <ErrorNotice error={start.error} title="The shadow run was not started" />}
        <Button
          type="submit"
          loading={start.isPending}
          disabled={active || !parsed.ok}
          style={{ alignSelf: 'flex-start' }}
        >
          Start shadow run
        </Button>
      </Stack>
    </form>
  );
}
