import { Anchor, Button, Group, NumberInput, Radio, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { Link } from 'react-router';
import type { Schemas } from '../../api/client';
import { usePackAudit, useSetPackAudit } from '../../api/queries/packs';
import { Panel } from '../../ui/Panel';
import { ErrorNotice, QueryState } from '../../ui/states';
import {
  auditChanged,
  auditSummary,
  formFromSettings,
  settingsFromForm,
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
            min={0}
            max={100}
            step={1}
            decimalScale={2}
            value={form.percent}
            onChange={(percent) => setForm({ ...form, percent })}
            error={parsed.ok ? undefined : parsed.error}
          />
          <Radio.Group
            label="Strategy"
            value={form.strategy}
            onChange={(strategy) => setForm({ ...form, strategy })}
          >
            <Stack gap="xs" mt="xs">
              <Radio
                value="uncertainty"
                label="By uncertainty (recommended)"
                description="Less certain decisions are drawn more often; every decision keeps at least a fifth of the rate."
              />
              <Radio value="uniform" label="Uniform" description="Every decision has the same chance." />
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
