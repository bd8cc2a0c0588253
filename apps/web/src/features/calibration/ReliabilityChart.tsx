import '@mantine/charts/styles.css';
import { LineChart } from '@mantine/charts';
import { SimpleGrid, Table, Text } from '@mantine/core';
import type { Schemas } from '../../api/client';
import { observedText, reliabilityPoints } from './calibration';

interface Props {
  questionName: string;
  bins: Schemas['ReliabilityBinDto'][];
}

/**
 * Predicted probability against observed agreement, per bin: a line chart (drawn for sight, hidden
 * from assistive technology) and the same figures as a table.
 */
export function ReliabilityChart({ questionName, bins }: Props) {
  const points = reliabilityPoints(bins);
  // Raw against calibrated: the map's line only once the question has a map.
  const mapped = points.some((point) => point.calibrated !== null);
  return (
    <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
      <figure style={{ margin: 0 }}>
        <LineChart
          h={260}
          data={points}
          dataKey="bin"
          series={[
            { name: 'observed', label: 'Observed agreement (raw probability)', color: 'indigo.6' },
            ...(mapped
              ? [{ name: 'calibrated', label: 'Calibrated probability (map)', color: 'teal.6' }]
              : []),
            { name: 'expected', label: 'Perfectly calibrated', color: 'gray.5', strokeDasharray: '5 5' },
          ]}
          yAxisProps={{ domain: [0, 100] }}
          // Every bin is named on the axis (none skipped for room), slanted to fit a phone.
          xAxisProps={{
            interval: 0,
            angle: -40,
            height: 48,
            tick: { fontSize: 11, fill: 'currentColor', textAnchor: 'end' },
          }}
          valueFormatter={observedText}
          // An empty bin is a gap in the line, not a point at 0 nor a line drawn across it.
          connectNulls={false}
          curveType="linear"
          withLegend
          xAxisLabel="Model's selected probability"
          yAxisLabel="Agreement"
          lineChartProps={{ accessibilityLayer: false }}
          aria-hidden
        />
        <Text component="figcaption" size="xs" c="dimmed" mt={4}>
          Reliability of {questionName}: how often labels agree with the model in each band of its raw
          selected probability, against the dashed line of a perfectly calibrated model
          {mapped &&
            ' and what the calibration map says their agreement is (it is calibrated where the two lines meet)'}
          . A band without labels is a gap in the line. The table gives the same figures.
        </Text>
      </figure>
      <Table.ScrollContainer minWidth={300}>
        <Table withTableBorder verticalSpacing={2} fz="sm">
          <Table.Caption>Reliability table for {questionName}</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Selected probability</Table.Th>
              <Table.Th scope="col" ta="right">
                Labels
              </Table.Th>
              <Table.Th scope="col" ta="right">
                Observed agreement
              </Table.Th>
              {mapped && (
                <Table.Th scope="col" ta="right">
                  Calibrated
                </Table.Th>
              )}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {points.map((point) => (
              <Table.Tr key={point.bin}>
                <Table.Th scope="row" fw="normal">
                  {point.bin}
                </Table.Th>
                <Table.Td ta="right">{point.count}</Table.Td>
                <Table.Td ta="right" c={point.observed === null ? 'dimmed' : undefined}>
                  {observedText(point.observed)}
                </Table.Td>
                {mapped && (
                  <Table.Td ta="right" c={point.calibrated === null ? 'dimmed' : undefined}>
                    {observedText(point.calibrated)}
                  </Table.Td>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </SimpleGrid>
  );
}
