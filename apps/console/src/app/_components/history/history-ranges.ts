import { parseAsStringLiteral } from 'nuqs';
import { type HistoryRange, historyRanges } from '../../../server/api/schemas/history';

export const HISTORY_RANGES = Object.keys(historyRanges) as HistoryRange[];

export const HISTORY_RANGE_LABELS: Readonly<Record<HistoryRange, string>> = {
  '15m': 'Last 15 minutes',
  '1h': 'Last hour',
  '6h': 'Last 6 hours',
  '24h': 'Last 24 hours',
};

/** The chart's range in the URL (`?history=6h`), the last hour by default. */
export const historyRangeParser = parseAsStringLiteral(HISTORY_RANGES).withDefault('1h');

export const historyRangeOptions = HISTORY_RANGES.map((range) => ({
  value: range,
  label: HISTORY_RANGE_LABELS[range],
}));
