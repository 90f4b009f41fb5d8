import type { HistoryValues } from './history-types';

/** A series off the wire: NaN (no sample in the bucket) becomes null, which JSON can carry. */
export function historyValues(values: readonly number[]): HistoryValues {
  return values.map((value) => (Number.isNaN(value) ? null : value));
}
