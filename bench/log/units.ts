/** Binary sizes for buffers and files; decimal ones for rates, as disk vendors and targets use them. */
export const KIB = 1024;
export const MIB = 1024 * KIB;
export const GIB = 1024 * MIB;
export const MB = 1_000_000;
export const GB = 1_000_000_000;

/** A byte count in the largest binary unit it fills, e.g. "4 GiB" or "16.6 KiB". */
export function sizeLabel(bytes: number): string {
  const [value, unit] =
    bytes >= GIB
      ? [bytes / GIB, 'GiB']
      : bytes >= MIB
        ? [bytes / MIB, 'MiB']
        : bytes >= KIB
          ? [bytes / KIB, 'KiB']
          : [bytes, 'B'];
  return `${Number.isInteger(value) ? value : value.toFixed(1)} ${unit}`;
}
