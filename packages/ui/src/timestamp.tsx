'use client';

import { useTimeZone } from './time-zone-provider';

/**
 * A point in time in the chosen zone, in a `<time>` element whose `dateTime` and hover title carry
 * the exact ISO-8601 instant in UTC.
 */
export function Timestamp({ epochMs, className }: { epochMs: number; className?: string }) {
  const { format } = useTimeZone();
  const iso = Number.isFinite(epochMs) ? new Date(epochMs).toISOString() : '';
  return (
    <time dateTime={iso} title={iso} className={className ?? 'whitespace-nowrap tabular-nums'}>
      {format(epochMs)}
    </time>
  );
}
