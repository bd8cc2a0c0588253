import type { Schemas } from '../../api/client';
import { useRevokeApiKey, useRotateApiKey } from '../../api/queries/integrations';
import { ConfirmModal } from '../../ui/ConfirmModal';

type ApiKey = Schemas['ApiKeyDto'];

export function RotateKeyModal({
  apiKey,
  onClose,
  onRotated,
}: {
  apiKey: ApiKey;
  onClose: () => void;
  onRotated: (key: Schemas['ApiKeyWithSecretDto']) => void;
}) {
  const rotate = useRotateApiKey(apiKey.id, { onSuccess: onRotated });
  return (
    <ConfirmModal
      title={`Rotate “${apiKey.name}”?`}
      confirmLabel="Rotate key"
      action={rotate}
      errorTitle="Could not rotate the key"
      onClose={onClose}
    >
      A new secret replaces the current one, which stops working at once. The name and permissions stay the
      same. Update every system that uses this key.
    </ConfirmModal>
  );
}

export function RevokeKeyModal({ apiKey, onClose }: { apiKey: ApiKey; onClose: () => void }) {
  const revoke = useRevokeApiKey(apiKey.id, { onSuccess: onClose });
  return (
    <ConfirmModal
      title={`Revoke “${apiKey.name}”?`}
      confirmLabel="Revoke key"
      action={revoke}
      errorTitle="Could not revoke the key"
      onClose={onClose}
    >
      Requests with this key are refused at once. This cannot be undone.
    </ConfirmModal>
  );
}
