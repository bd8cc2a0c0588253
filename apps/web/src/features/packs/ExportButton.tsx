import { Button } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { errorMessage } from '../../api/client';
import { useExportPack } from '../../api/queries/packs';
import { exportFileName } from './packs';

/** Saves the browser a file with the pack's export (`{name, document}`, the saved draft). */
function download(fileName: string, content: string) {
  const url = URL.createObjectURL(new Blob([content], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** "Export": downloads the saved draft as `<pack-name>.json`, ready for Import pack. */
export function ExportButton({ packId }: { packId: string }) {
  const exportPack = useExportPack(packId, {
    onSuccess: (data) => download(exportFileName(data.name), `${JSON.stringify(data, null, 2)}\n`),
    onError: (error) =>
      notifications.show({ color: 'red', title: 'Export failed', message: errorMessage(error) }),
  });
  return (
    <Button variant="default" loading={exportPack.isPending} onClick={() => exportPack.mutate()}>
      Export
    </Button>
  );
}
