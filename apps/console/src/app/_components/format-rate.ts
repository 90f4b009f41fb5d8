import { formatBytes } from '@weir/ui';

/** A per-second rate of records or requests, with at most one decimal. */
export function formatPerSecond(value: number): string {
  return `${value.toLocaleString('en-US', { maximumFractionDigits: 1 })}/s`;
}

/** A byte rate in binary units. */
export function formatBytesPerSecond(value: number): string {
  return `${formatBytes(Math.round(value))}/s`;
}
