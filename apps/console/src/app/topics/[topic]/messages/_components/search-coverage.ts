import type { PartitionPosition } from '../../../../../server/api/schemas/messages';

/**
 * The share of the search's offset span already behind it: over all partitions, the offsets from
 * where this request started to where it continues, out of those from its start to its end. An
 * empty span (nothing to read) counts as covered. Offsets are int64, so the sums are BigInts and
 * only the ratio becomes a number.
 */
export function coveredFraction(partitions: readonly PartitionPosition[]): number | undefined {
  if (partitions.length === 0) return undefined;
  let span = 0n;
  let covered = 0n;
  for (const position of partitions) {
    const start = BigInt(position.startOffset);
    const end = BigInt(position.endOffset);
    const next = BigInt(position.nextOffset);
    span += end > start ? end - start : 0n;
    covered += position.done ? (end > start ? end - start : 0n) : next > start ? next - start : 0n;
  }
  if (span === 0n) return 1;
  // Scaled to parts per million first, so a span beyond 2^53 still divides exactly enough.
  return Number((covered * 1_000_000n) / span) / 1_000_000;
}
