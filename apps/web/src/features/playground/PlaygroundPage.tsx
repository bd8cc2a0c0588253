import { Button, Card, Grid, Stack, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { ApiError } from '../../api/client';
import { usePack, usePacks, usePackVersions } from '../../api/queries/packs';
import { usePlaygroundJudge } from '../../api/queries/evaluations';
import { JudgeResult } from './JudgeResult';
import { PackVersionPicker } from './PackVersionPicker';
import { RedactedTicket } from './RedactedTicket';
import { TicketFields } from './TicketFields';
import { ErrorNotice, Loading } from '../../ui/states';
import { shortId } from '../../lib/format';
import { defaultVersionId, versionLabel } from '../../lib/versions';
import { documentForVersion } from '../../lib/pack-document';
import { buildTicket, EMPTY_TICKET_FORM, type TicketForm } from './playground';
import { PageHeader } from '../../ui/PageHeader';

/** /playground: judge one ticket against any version of a pack and see how the judge decided. */
export default function PlaygroundPage() {
  const [params] = useSearchParams();
  const [packId, setPackId] = useState<string | null>(params.get('pack'));
  const [chosenVersion, setChosenVersion] = useState<string | null>(params.get('version'));
  const [form, setForm] = useState<TicketForm>(EMPTY_TICKET_FORM);
  const [metadataErrors, setMetadataErrors] = useState<Record<number, string>>({});
  const [packMissing, setPackMissing] = useState(false);
  const packs = usePacks();
  const versions = usePackVersions(packId ?? undefined).data ?? [];
  const pack = usePack(packId ?? undefined).data;
  const liveVersionId = packs.data?.find((item) => item.id === packId)?.liveVersionId ?? null;
  const versionId =
    chosenVersion && versions.some((version) => version.id === chosenVersion)
      ? chosenVersion
      : defaultVersionId(versions, liveVersionId);

  const judge = usePlaygroundJudge();
  const apiError = judge.error instanceof ApiError ? judge.error : undefined;
  const issue = (path: string) => apiError?.issueFor(path);

  function choosePack(next: string | null) {
    setPackId(next);
    setChosenVersion(null);
    setPackMissing(false);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const built = buildTicket(form);
    setMetadataErrors(built.ok ? {} : built.metadataErrors);
    setPackMissing(!packId);
    if (!built.ok || !packId) return;
    const useVersion = versionId && versionId !== liveVersionId ? { packVersionId: versionId } : {};
    judge.mutate({ packId, ...useVersion, ticket: built.ticket });
  }

  const response = judge.data;
  const judgedVersion = response && versions.find((version) => version.id === response.packVersionId);
  return (
    <Stack>
      <PageHeader
        title="Playground"
        description="Try a ticket against a pack, the draft included. Every run is stored as a playground evaluation."
      />
      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 6 }}>
          <Card withBorder padding="md" component="section" aria-labelledby="ticket-input-title">
            <form onSubmit={submit} noValidate>
              <Stack gap="sm">
                <Title order={3} id="ticket-input-title">
                  Ticket
                </Title>
                <PackVersionPicker
                  packId={packId}
                  versionId={versionId}
                  onPack={choosePack}
                  onVersion={setChosenVersion}
                  packError={packMissing ? 'Choose a pack' : issue('packId')}
                  versionError={issue('packVersionId')}
                />
                <TicketFields form={form} onChange={setForm} issue={issue} metadataErrors={metadataErrors} />
                {judge.error && <ErrorNotice error={judge.error} title="The ticket was not judged" />}
                <Button type="submit" loading={judge.isPending} style={{ alignSelf: 'flex-start' }}>
                  Judge
                </Button>
              </Stack>
            </form>
          </Card>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 6 }}>
          <RedactedTicket ticket={response?.redactedTicket} />
        </Grid.Col>
      </Grid>
      {judge.isPending && <Loading label="Judging" />}
      {response && !judge.isPending && (
        <JudgeResult
          response={response}
          document={pack ? documentForVersion(pack, response.packVersionId) : undefined}
          versionLabel={
            judgedVersion
              ? versionLabel(versions, judgedVersion, liveVersionId)
              : shortId(response.packVersionId)
          }
        />
      )}
    </Stack>
  );
}
