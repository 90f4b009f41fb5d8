/**
 * The most groups or topics one history call names: a page of the console's lists is far below
 * it, and an answer for this many stays far below the request size limits at the fine tier
 * (1000 names × 3 series × 360 float64s ≈ 8.6 MB, partitions aside).
 */
export const MAX_HISTORY_NAMES_PER_CALL = 1000;

/** Why a history request is refused (INVALID_REQUEST), naming the field; undefined when it is fine. */
export function historyRequestProblem(
  namesField: string,
  nameCount: number,
  sinceMs: bigint,
): string | undefined {
  if (nameCount > MAX_HISTORY_NAMES_PER_CALL)
    return `${namesField} may name at most ${MAX_HISTORY_NAMES_PER_CALL}, got ${nameCount}`;
  if (sinceMs < 0n) return `sinceMs must be 0 or more, got ${sinceMs}`;
  return undefined;
}
