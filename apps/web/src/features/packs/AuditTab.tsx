import { Anchor, Button, Group, NumberInput, Radio, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { Link } from 'react-router';
import { ApiError, type Schemas } from '../../api/client';
import { usePackAudit, useSetPackAudit } from '../../api/queries/packs';
import { Panel } from '../../ui/Panel';
import { ErrorNotice, QueryState } from '../../ui/states';
import {
  auditChanged,
  auditSummary,
  formFromSettings,
  settingsFromForm,
  STRATEGY_OPTIONS,
  type AuditForm,
} from './audit-settings';

/** The Audit tab: how many automatic decisions of live traffic are drawn for a reviewer to check. */
export function AuditTab({ packId }: { packId: string }) {
  const audit = usePackAudit(packId);
  return (
    <QueryState query={audit}>
      {(settings) => <AuditSettingsForm key={JSON.stringify(settings)} packId={packId} saved={settings} />}
    </QueryState>
  );
}

function AuditSettingsForm({ packId, saved }: { packId: string; saved: Schemas['AuditSettingsDto'] }) {
  const [form, setForm] = useState<AuditForm>(formFromSettings(saved));
  const save = useSetPackAudit(packId, {
    onSuccess: () => notifications.show({ color: 'green', message: 'Audit settings saved' }),
  });
  const parsed = settingsFromForm(form);
  /** An edit forgets the last refusal, whose issues were about the values before it. */
  const edit = (change: Partial<AuditForm>) => {
    save.reset();
    setForm({ ...form, ...change });
  };
  const rateError = parsed.ok
    ? save.error instanceof ApiError
      ? save.error.issueFor('rate')
      : undefined
    : parsed.error;
  return (
    <Panel title="Audit sampling">
      <Text size="sm">
        Reviewers see the evaluations sent to review. Audit sampling also sends them a random share of the
        automatic decisions (accept, reject) of live traffic, so their labels can tell how often the judge is
        right when it decides alone. {auditSummary(saved)}
      </Text>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (parsed.ok) save.mutate(parsed.settings);
        }}
      >
        <Stack gap="md" maw={520}>
          <NumberInput
            label="Audit rate"
            description="The share of automatic decisions drawn for audit. 0 turns it off."
            suffix="%"
            step={1}
            decimalScale={2}
            value={form.percent}
            onChange={(percent) => edit({ percent })}
            error={rateError}
          />
          <Radio.Group label="Strategy" value={form.strategy} onChange={(strategy) => edit({ strategy })}>
            <Stack gap="xs" mt="xs">
              {STRATEGY_OPTIONS.map((option) => (
                <Radio key={option.value} {...option} />
              ))}
            </Stack>
          </Radio.Group>
          {save.error && <ErrorNotice error={save.error} title="Could not save the audit settings" />}
          <Group justify="space-between">
            <Anchor component={Link} to={`/reviews?queue=audit&packId=${packId}`} size="sm">
              Open the audit queue
            </Anchor>
            <Button
              type="submit"
              loading={save.isPending}
              disabled={!parsed.ok || !auditChanged(form, saved)}
            >
              Save audit settings
            </Button>
          </Group>
        </Stack>
      </form>
    </Panel>
  );
}
