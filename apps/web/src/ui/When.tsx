import { formatDateTime, formatWhen } from '../lib/format';

/** A time as "5 minutes ago", with the full date and time on hover. */
export function When({ iso }: { iso: string | null }) {
  if (!iso) return <>Never</>;
  return (
    <time dateTime={iso} title={formatDateTime(iso)}>
      {formatWhen(iso)}
    </time>
  );
}
