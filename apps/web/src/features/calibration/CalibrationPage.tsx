import { Anchor, Button, Group, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { Link, useSearchParams } from 'react-router';
import { ApiError, type Schemas } from '../../api/client';
import { useCalibration } from '../../api/queries/calibration';
import { usePack, usePacks } from '../../api/queries/packs';
import { QuestionCalibrationCard } from './QuestionCalibrationCard';
import { Empty, ErrorNotice, Loading } from '../../ui/states';
import { DEFAULT_TARGET, labelsExportUrl, TARGET_AGREEMENTS, thresholdOf, totalLabels } from './calibration';
import { formatPercent } from '../../lib/format';
import { liveVersionText } from '../../lib/versions';
import { PageHeader } from '../../ui/PageHeader';

function Report({ packId, target }: { packId: string; target: number }) {
  const calibration = useCalibration(packId, target);
  const pack = usePack(packId);
  const listed = usePacks().data?.find((item) => item.id === packId);
  if (calibration.isPending) return <Loading label="Computing calibration" />;
  if (calibration.error instanceof ApiError && calibration.error.status === 409) {
    return (
      <Empty title="No published version">
        Publish the pack, judge tickets and label them to calibrate it.
      </Empty>
    );
  }
  if (calibration.isError)
    return <ErrorNotice error={calibration.error} title="Could not compute calibration" />;

  const report: Schemas['CalibrationDto'] = calibration.data;
  const names = new Map(
    (pack.data?.liveDocument?.questions ?? []).map((question) => [question.id, question.name]),
  );
  const toLabel = (
    <Anchor component={Link} to={`/reviews?packId=${packId}&labeled=false`} underline="always">
      Label reviews of this pack
    </Anchor>
  );
  if (!report.questions.length) return <Empty title="No questions">The live version has no questions.</Empty>;
  if (totalLabels(report) === 0) {
    return (
      <Empty title="Too few labels to calibrate">
        No evaluation of the live version has a label yet. {toLabel} first.
      </Empty>
    );
  }
  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        {liveVersionText(report.versionId, listed)}, {totalLabels(report)} labels, target agreement{' '}
        {formatPercent(report.targetAgreement)}. {toLabel} to sharpen these figures.
      </Text>
      {pack.isError && <ErrorNotice error={pack.error} title="Could not read the pack's thresholds" />}
      {report.questions.map((question) => (
        <QuestionCalibrationCard
          key={question.questionId}
          packId={packId}
          question={question}
          questionName={names.get(question.questionId) ?? question.questionId}
          targetAgreement={report.targetAgreement}
          delta={report.delta}
          liveThreshold={thresholdOf(pack.data?.liveDocument, question.questionId)}
          draftThreshold={thresholdOf(pack.data?.document, question.questionId)}
        />
      ))}
    </Stack>
  );
}

export default function CalibrationPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const packId = searchParams.get('packId') || undefined;
  const target = searchParams.get('target') ?? DEFAULT_TARGET;
  const packs = usePacks();
  const update = (key: string, value: string | null) => {
    const next = new URLSearchParams(searchParams);
    if (value) next.set(key, value);
    else next.delete(key);
    setSearchParams(next, { replace: true });
  };

  return (
    <Stack gap="md">
      <PageHeader
        title="Calibration"
        description="How well the model's confidence matches reviewers' labels, per question of a pack's live version, and the review threshold that would reach the target agreement."
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }} maw={640}>
        <Select
          label="Pack"
          placeholder={packs.isPending ? 'Loading packs…' : 'Pick a pack'}
          data={(packs.data ?? []).map((pack) => ({ value: pack.id, label: pack.name }))}
          value={packId ?? null}
          onChange={(value) => update('packId', value)}
          searchable
          nothingFoundMessage="No pack matches"
          error={packs.isError ? 'Could not load your packs' : undefined}
        />
        <Select
          label="Target agreement"
          data={TARGET_AGREEMENTS.map((value) => ({ value, label: formatPercent(Number(value)) }))}
          value={TARGET_AGREEMENTS.includes(target) ? target : DEFAULT_TARGET}
          onChange={(value) => update('target', value === DEFAULT_TARGET ? null : value)}
          allowDeselect={false}
        />
      </SimpleGrid>
      <Group gap="xs">
        <Button component="a" href={labelsExportUrl(packId)} download variant="light" size="xs">
          Export CSV
        </Button>
        <Text size="xs" c="dimmed">
          {packId ? "This pack's labels" : 'All your labels'}, with the model's answers, as CSV.
        </Text>
      </Group>
      {packs.isError && <ErrorNotice error={packs.error} title="Could not load your packs" />}
      {packId ? (
        <Report
          packId={packId}
          target={Number(TARGET_AGREEMENTS.includes(target) ? target : DEFAULT_TARGET)}
        />
      ) : (
        packs.isSuccess && (
          <Empty title={packs.data.length ? 'Pick a pack' : 'No packs yet'}>
            {packs.data.length
              ? 'Choose a pack to see how its questions are calibrated.'
              : 'Create and publish a pack, then label its reviews.'}
          </Empty>
        )
      )}
    </Stack>
  );
}
