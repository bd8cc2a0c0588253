import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import type { Schemas } from '../../api/client';
import { chartRows, STATUS_COLORS, STATUS_LABELS, STATUSES } from './dashboard';

/**
 * The stacked bars. Loaded on its own (the charting library is the heaviest thing on the
 * dashboard), and hidden from assistive technology: DailySection gives the same figures as text.
 * Every status is a series, so the legend always names all three (Reject too, before the first
 * rejection), and the count axis has whole-number ticks only.
 */
const SERIES = STATUSES.map((status) => ({
  name: status,
  label: STATUS_LABELS[status],
  color: STATUS_COLORS[status],
}));

export default function DailyChart({ daily }: { daily: Schemas['DailyDto'][] }) {
  return (
    <BarChart
      h={260}
      data={chartRows(daily)}
      dataKey="day"
      type="stacked"
      series={SERIES}
      withLegend
      legendProps={{ verticalAlign: 'bottom', itemSorter: null }}
      tickLine="y"
      yAxisProps={{ allowDecimals: false }}
      gridAxis="y"
      barChartProps={{ accessibilityLayer: false }}
      aria-hidden
    />
  );
}
