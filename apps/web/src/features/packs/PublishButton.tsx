import { Alert } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { ApiError, type Issue } from '../../api/client';
import { usePublishPack } from '../../api/queries/packs';
import { ConfirmButton } from '../../ui/ConfirmButton';

interface Props {
  packId: string;
  /** The editor holds edits that are not saved: they will not be published. */
  dirty: boolean;
  /** Called with the issues of a draft that fails validation on publish. */
  onIssues: (issues: Issue[]) => void;
}

/** "Publish" with a confirmation: the saved draft becomes the live version. */
export function PublishButton({ packId, dirty, onIssues }: Props) {
  const publish = usePublishPack(packId, {
    onSuccess: () => {
      notifications.show({ color: 'green', message: 'Draft published: it is now the live version' });
    },
    onError: (error) => {
      if (error instanceof ApiError && error.issues.length) onIssues(error.issues);
    },
  });

  return (
    <ConfirmButton
      label="Publish"
      title="Publish the draft?"
      confirmLabel="Confirm publish"
      danger={false}
      action={publish}
      errorTitle="The draft was not published"
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
  );
}
