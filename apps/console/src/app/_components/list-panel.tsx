'use client';

import type { UseQueryResult } from '@tanstack/react-query';
import { Panel } from '@weir/ui';
import type { ReactNode } from 'react';
import { QueryAsOf } from './query-as-of';
import { QueryState } from './query-state';

type ListPanelProps<Data extends { asOfMs: number }> = {
  /** The panel's title, which also names its region, e.g. "Topic list". */
  title: string;
  query: UseQueryResult<Data, unknown>;
  /** Names what failed, e.g. "Could not read the topic list". */
  errorTitle: string;
  /** Shown before the as-of indicator, e.g. how a column is measured. */
  note?: ReactNode;
  /** The table and its pager, stacked. */
  children: (data: Data) => ReactNode;
};

/**
 * The frame of a list read from the broker: a flush panel with when it was read and a refresh
 * button, and the read's loading and error states (see `QueryState`) around its content.
 */
export function ListPanel<Data extends { asOfMs: number }>({
  title,
  query,
  errorTitle,
  note,
  children,
}: ListPanelProps<Data>) {
  const asOf = <QueryAsOf query={query} />;
  return (
    <Panel
      title={title}
      flush
      actions={
        note ? (
          <span className="inline-flex flex-wrap items-center gap-3">
            {note}
            {asOf}
          </span>
        ) : (
          asOf
        )
      }
    >
      <QueryState query={query} errorTitle={errorTitle}>
        {(data) => <div className="flex flex-col gap-2">{children(data)}</div>}
      </QueryState>
    </Panel>
  );
}
