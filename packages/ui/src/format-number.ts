/**
 * Offsets, counts and sizes arrive as decimal strings because they can exceed 2^53. These helpers
 * format them without going through `number`, so no digit is ever rounded away.
 */

/** Groups digits in threes: `1234567` → `1,234,567`. Non-numeric input is returned as it is. */
export function formatCount(value: string | number | bigint): string {
  const text = String(value);
  const match = /^(-?)(\d+)$/.exec(text);
  if (!match) return text;
  const [, sign, digits] = match;
  return `${sign}${digits!.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}`;
}

const byteUnits = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'] as const;

/** Humanises a byte count in binary units with one decimal: `1536` → `1.5 KiB`. */
export function formatBytes(value: string | number | bigint): string {
  let bytes: bigint;
  try {
    bytes = BigInt(value);
  } catch {
    return String(value);
  }
  if (bytes < 1024n) return `${bytes} B`;
  let unit = 0;
  // Tenths of the current unit, kept in bigint until it is small enough to show.
  let tenths = bytes * 10n;
  while (tenths >= 10240n && unit < byteUnits.length - 1) {
    tenths /= 1024n;
    unit += 1;
  }
  return `${tenths / 10n}.${tenths % 10n} ${byteUnits[unit]}`;
}
