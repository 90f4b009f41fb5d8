'use client';

import { formatTimeOfDay } from './format-time';
import { useTimeZone } from './time-zone-provider';

type AsOfIndicatorProps = {
  /** When the broker answered; undefined while nothing has been read. */
  asOfMs: number | undefined;
  onRefresh?: () => void;
  refreshing?: boolean;
};

/**
 * States when the data on a panel was read, with a refresh button. Cached numbers are only
 * trustworthy when their age is visible; the exact instant is in the hover title.
 */
export function AsOfIndicator({ asOfMs, onRefresh, refreshing = false }: AsOfIndicatorProps) {
  const { mode, format } = useTimeZone();
  return (
    <span className="inline-flex items-center gap-2 text-xs text-zinc-500 dark:text-zinc-400">
      {asOfMs === undefined ? (
        <span>Not read yet</span>
      ) : (
        <span>
          As of{' '}
          <time
            dateTime={new Date(asOfMs).toISOString()}
            title={format(asOfMs)}
            data-testid="as-of"
            className="tabular-nums"
          >
            {formatTimeOfDay(asOfMs, mode)}
          </time>
        </span>
      )}
      {onRefresh ? (
        <button
          type="button"
          onClick={onRefresh}
          disabled={refreshing}
          aria-label="Refresh"
          title="Read again from the broker"
          className="rounded p-1 hover:bg-zinc-100 hover:text-zinc-900 disabled:opacity-50 dark:hover:bg-zinc-800 dark:hover:text-zinc-100"
        >
          <svg
            viewBox="0 0 16 16"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.6"
            strokeLinecap="round"
            aria-hidden="true"
            className={`size-3.5 ${refreshing ? 'animate-spin' : ''}`}
          >
            <path d="M13.5 8A5.5 5.5 0 1 1 11.9 4.1" />
            <path d="M13.5 2.5v3h-3" />
          </svg>
        </button>
      ) : null}
    </span>
  );
}
