import { Title } from '@mantine/core';

export default function CalibrationPage() {
  return <Title order={2}>Calibration</Title>;
}
