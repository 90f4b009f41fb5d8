/**
 * Timestamps are shown as `YYYY-MM-DD HH:mm:ss.SSS` followed by the zone (`UTC` or the local
 * offset such as `+05:30`), never as relative time alone: operators compare them with logs.
 */
export type TimeZoneMode = 'utc' | 'local';

function pad(value: number, width = 2): string {
  return String(value).padStart(width, '0');
}

function offsetLabel(date: Date): string {
  const offsetMinutes = -date.getTimezoneOffset();
  const sign = offsetMinutes >= 0 ? '+' : '-';
  const absolute = Math.abs(offsetMinutes);
  return `${sign}${pad(Math.floor(absolute / 60))}:${pad(absolute % 60)}`;
}

/** Formats epoch milliseconds in the chosen zone, with the zone named at the end. */
export function formatTimestamp(epochMs: number, mode: TimeZoneMode): string {
  const date = new Date(epochMs);
  if (Number.isNaN(date.getTime())) return 'invalid time';
  if (mode === 'utc') {
    return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}.${pad(date.getUTCMilliseconds(), 3)} UTC`;
  }
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)} ${offsetLabel(date)}`;
}

/** The time of day only, for compact "as of" labels. */
export function formatTimeOfDay(epochMs: number, mode: TimeZoneMode): string {
  const full = formatTimestamp(epochMs, mode);
  const [, time, zone] = full.split(' ');
  return `${time?.slice(0, 8) ?? ''} ${zone ?? ''}`.trim();
}

/**
 * Turns the value of a `datetime-local` input, read in the chosen zone, into epoch milliseconds.
 * Returns undefined for an empty or malformed value.
 */
export function parseDateTimeInput(value: string, mode: TimeZoneMode): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/.test(value)) return undefined;
  const epochMs = mode === 'utc' ? Date.parse(`${value}Z`) : new Date(value).getTime();
  return Number.isNaN(epochMs) ? undefined : epochMs;
}

/** The inverse of {@link parseDateTimeInput}: epoch milliseconds as a `datetime-local` value. */
export function toDateTimeInput(epochMs: number, mode: TimeZoneMode): string {
  return formatTimestamp(epochMs, mode).slice(0, 23).replace(' ', 'T');
}
