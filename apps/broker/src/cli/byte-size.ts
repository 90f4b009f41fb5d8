const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];

/** A byte count for people: `512 B`, `1.5 KiB`, `20.0 MiB`. */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${UNITS[unit]}`;
}
