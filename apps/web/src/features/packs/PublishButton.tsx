import { Alert, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { ApiError, type Issue, type Schemas } from '../../api/client';
import { usePublishPack } from '../../api/queries/packs';
import { ConfirmButton } from '../../ui/ConfirmButton';
import { publishBlocker } from './packs';
import { ShadowPublishSummary } from './ShadowPublishSummary';

interface Props {
  /** The saved pack: its draft is what gets published. */
  pack: Schemas['PackDto'];
  /** The editor holds edits that are not saved: they will not be published. */
  dirty: boolean;
  /** Called with the issues of a draft that fails validation on publish. */
  onIssues: (issues: Issue[]) => void;
  /** Shows the pack page's Shadow tab (the dialog's shadow summary links there). */
  onShowShadow?: () => void;
}

/**
 * "Publish" with a confirmation: the saved draft becomes the live version. Not offered (disabled, with
 * the reason beside it) for a saved draft equal to the live version, which would only make an
 * identical version and start its calibration over, nor for a draft without questions. The dialog
 * shows the report of the newest shadow run of this draft first, when there is one.
 */
export function PublishButton({ pack, dirty, onIssues, onShowShadow }: Props) {
  const reason = publishBlocker(pack);
  // Unsaved edits may be what would make the draft differ: say to save them.
  const blocker = reason && dirty ? `${reason} Save your edits first.` : reason;
  const reasonId = `publish-blocked-${pack.id}`;
  const publish = usePublishPack(pack.id, {
    onSuccess: () => {
      notifications.show({ color: 'green', message: 'Draft published: it is now the live version' });
    },
    onError: (error) => {
      if (error instanceof ApiError && error.issues.length) onIssues(error.issues);
    },
  });

  return (
    <Group gap="xs" justify="flex-end">
      {blocker && (
        <Text size="sm" c="dimmed" id={reasonId} maw={320}>
          {blocker}
        </Text>
      )}
      <ConfirmButton
        label="Publish"
        buttonProps={{ disabled: Boolean(blocker), 'aria-describedby': blocker ? reasonId : undefined }}
        title="Publish the draft?"
        confirmLabel="Confirm publish"
        danger={false}
        action={publish}
        errorTitle="The draft was not published"
        lead={(cancel) => (
          <ShadowPublishSummary
            packId={pack.id}
            onOpenTab={
              onShowShadow &&
              (() => {
                cancel();
                onShowShadow();
              })
            }
          />
        )}
        details={
          dirty && (
            <Alert color="yellow" title="Unsaved edits">
              Your unsaved edits are not part of the saved draft. Cancel and use Save draft first to publish
              them.
            </Alert>
          )
        }
      >
        The saved draft becomes the live version that judging uses from now on, and a new draft opens with the
        same questions.
      </ConfirmButton>
    </Group>
  );
}
