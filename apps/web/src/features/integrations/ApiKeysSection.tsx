import { Button } from '@mantine/core';
import { useState } from 'react';
import type { Schemas } from '../../api/client';
import { useApiKeys } from '../../api/queries/integrations';
import { Empty, QueryState } from '../../ui/states';
import { CreateKeyModal } from './CreateKeyModal';
import { RevokeKeyModal, RotateKeyModal } from './KeyConfirmations';
import { KeysTable } from './KeysTable';
import { SecretModal } from './SecretModal';
import { Section } from './Section';

type ApiKey = Schemas['ApiKeyDto'];

type Dialog =
  | { kind: 'create' }
  | { kind: 'rotate'; key: ApiKey }
  | { kind: 'revoke'; key: ApiKey }
  | { kind: 'secret'; key: Schemas['ApiKeyWithSecretDto'] };

export function ApiKeysSection() {
  const keys = useApiKeys();
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const close = () => setDialog(null);
  const showSecret = (key: Schemas['ApiKeyWithSecretDto']) => setDialog({ kind: 'secret', key });

  return (
    <Section
      title="API keys"
      description="Keys let your systems call the API (x-api-key header or Authorization: Bearer). A key's secret is shown once, when it is created or rotated."
      action={<Button onClick={() => setDialog({ kind: 'create' })}>Create key</Button>}
      covered={dialog !== null}
    >
      <QueryState query={keys}>
        {(list) =>
          list.length === 0 ? (
            <Empty title="No API keys yet">
              Create a key to judge tickets from your help desk or scripts.
            </Empty>
          ) : (
            <KeysTable
              keys={list}
              onRotate={(key) => setDialog({ kind: 'rotate', key })}
              onRevoke={(key) => setDialog({ kind: 'revoke', key })}
            />
          )
        }
      </QueryState>
      {dialog?.kind === 'create' && <CreateKeyModal onClose={close} onCreated={showSecret} />}
      {dialog?.kind === 'rotate' && (
        <RotateKeyModal apiKey={dialog.key} onClose={close} onRotated={showSecret} />
      )}
      {dialog?.kind === 'revoke' && <RevokeKeyModal apiKey={dialog.key} onClose={close} />}
      {dialog?.kind === 'secret' && (
        <SecretModal title="Copy your new key" label="API key" secret={dialog.key.secret} onClose={close}>
          Key “{dialog.key.name}”, starting with {dialog.key.prefix}.
        </SecretModal>
      )}
    </Section>
  );
}
