import { Button, Group, NumberInput, SimpleGrid, Stack, Switch, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { ApiError } from '../../api/client';
import { useAlertRules, useSetAlertRules } from '../../api/queries/alerts';
import { Panel } from '../../ui/Panel';
import { ErrorNotice, QueryState } from '../../ui/states';
import { RULE_FORMS, rulesChanged, withRuleField, type AlertRules } from './alert-rules';

/** The pack's alert rules: each on or off, with its thresholds (docs/alerts.md); the server checks them. */
export function AlertRulesPanel({ packId }: { packId: string }) {
  const rules = useAlertRules(packId);
  return (
    <QueryState query={rules}>
      {(saved) => <AlertRulesForm key={JSON.stringify(saved)} packId={packId} saved={saved} />}
    </QueryState>
  );
}

function AlertRulesForm({ packId, saved }: { packId: string; saved: AlertRules }) {
  const [form, setForm] = useState<AlertRules>(saved);
  const save = useSetAlertRules(packId, {
    onSuccess: () => notifications.show({ color: 'green', message: 'Alert rules saved' }),
  });
  return (
    <Panel title="Alert rules">
      <Text size="sm">
        The worker checks these rules every few minutes on the pack’s live traffic and opens an alert when one
        holds; it closes the alert when the condition clears. Each alert’s summary names the windows it
        compared.
      </Text>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          save.mutate(form);
        }}
      >
        <Stack gap="lg">
          {RULE_FORMS.map(({ rule, label, description, fields }) => {
            const values = form[rule] as unknown as Record<string, number | boolean>;
            return (
              <Stack key={rule} gap="xs">
                <Switch
                  label={label}
                  description={description}
                  checked={Boolean(values.enabled)}
                  onChange={(event) =>
                    setForm(withRuleField(form, rule, 'enabled', event.currentTarget.checked))
                  }
                />
                <SimpleGrid cols={{ base: 1, sm: 3 }}>
                  {fields.map((field) => (
                    <NumberInput
                      key={field.key}
                      label={`${label}: ${field.label}`}
                      description={field.description}
                      decimalScale={field.integer ? 0 : 4}
                      step={field.integer ? 1 : 0.01}
                      value={values[field.key] as number}
                      onChange={(value) => setForm(withRuleField(form, rule, field.key, value))}
                      error={
                        save.error instanceof ApiError
                          ? save.error.issueFor(`${rule}.${field.key}`)
                          : undefined
                      }
                    />
                  ))}
                </SimpleGrid>
              </Stack>
            );
          })}
          {save.error && <ErrorNotice error={save.error} title="Could not save the alert rules" />}
          <Group justify="flex-end">
            <Button type="submit" loading={save.isPending} disabled={!rulesChanged(form, saved)}>
              Save alert rules
            </Button>
          </Group>
        </Stack>
      </form>
    </Panel>
  );
}
