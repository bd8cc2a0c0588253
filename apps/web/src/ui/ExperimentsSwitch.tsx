import { Switch } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { includesExperiments, withExperiments } from '../lib/sources';

/**
 * "Include playground and simulations": live traffic (API, webhooks, MCP) is shown by default;
 * the switch adds the experiments. Its state lives in the URL (`?experiments=true`), so a link or a
 * reload keeps it. `inline` drops the description line, for a row of filters whose page says it
 * already (the Reviews page), so the switch is one line high like the inputs beside it.
 */
export function ExperimentsSwitch({ inline = false }: { inline?: boolean }) {
  const [searchParams, setSearchParams] = useSearchParams();
  return (
    <Switch
      label="Include playground and simulations"
      description={inline ? undefined : 'Off: live traffic only (API, webhooks, MCP)'}
      checked={includesExperiments(searchParams)}
      onChange={(event) =>
        setSearchParams(withExperiments(searchParams, event.currentTarget.checked), { replace: true })
      }
    />
  );
}
