import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import type { Schemas } from '../../api/client';
import { chartRows, chartStatuses, STATUS_COLORS, STATUS_LABELS } from './dashboard';

/**
 * The stacked bars. Loaded on its own (the charting library is the heaviest thing on the
 * dashboard), and hidden from assistive technology: DailySection gives the same figures as text.
 */
export default function DailyChart({ daily }: { daily: Schemas['DailyDto'][] }) {
  const series = chartStatuses(daily).map((status) => ({
    name: status,
    label: STATUS_LABELS[status],
    color: STATUS_COLORS[status],
  }));
  return (
    <BarChart
      h={260}
      data={chartRows(daily)}
      dataKey="day"
      type="stacked"
      series={series}
      withLegend
      legendProps={{ verticalAlign: 'bottom', itemSorter: null }}
      tickLine="y"
      gridAxis="y"
      barChartProps={{ accessibilityLayer: false }}
      aria-hidden
    />
  );
}
