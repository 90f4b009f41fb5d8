'use client';

import { useQuery } from '@tanstack/react-query';
import { Badge, ByteSize, Count, DataTable, type DataTableColumn, Panel, Timestamp } from '@weir/ui';
import type { LogCleanerReplica } from '../../../../server/api/schemas/log-cleaner';
import { useTRPC } from '../../../../trpc/react';
import { QueryAsOf } from '../../../_components/query-as-of';
import { QueryState } from '../../../_components/query-state';

const none = <span className="text-zinc-500 dark:text-zinc-400">—</span>;

function percent(ratio: number): string {
  return `${(ratio * 100).toFixed(1)} %`;
}

function NextClean({ replica }: { replica: LogCleanerReplica }) {
  const due = replica.nextCleanDue;
  if (due.kind === 'now') return <Badge tone="accent">now</Badge>;
  if (due.kind === 'retry') {
    return (
      <span className="inline-flex items-center gap-1.5">
        <Badge tone="warning">retry</Badge>
        <Timestamp epochMs={due.atMs} />
      </span>
    );
  }
  return (
    <span title="The dirty ratio counts only records older than min.compaction.lag.ms; max.compaction.lag.ms sets the latest time">
      at {percent(replica.minCleanableDirtyRatio)} dirty
      {due.latestAtMs === null ? null : (
        <>
          , by <Timestamp epochMs={due.latestAtMs} />
        </>
      )}
    </span>
  );
}

const columns: readonly DataTableColumn<LogCleanerReplica>[] = [
  { id: 'partition', header: 'Partition', align: 'right', cell: (row) => <Count value={row.partition} /> },
  {
    id: 'broker',
    header: 'Broker',
    cell: (row) => (
      <span className="inline-flex items-center gap-1.5">
        {row.brokerId}
        {row.leader ? <Badge tone="accent">leader</Badge> : <Badge>follower</Badge>}
      </span>
    ),
  },
  {
    id: 'dirtyRatio',
    header: 'Dirty ratio',
    align: 'right',
    cell: (row) => (
      <span className="tabular-nums" title="Dirty bytes over the bytes the cleaner may clean">
        {percent(row.dirtyRatio)}
      </span>
    ),
  },
  {
    id: 'minCleanableDirtyRatio',
    header: 'Cleans at',
    align: 'right',
    cell: (row) => (
      <span className="tabular-nums" title="min.cleanable.dirty.ratio">
        {percent(row.minCleanableDirtyRatio)}
      </span>
    ),
  },
  {
    id: 'cleanedUpTo',
    header: 'Cleaned up to',
    align: 'right',
    cell: (row) => (row.cleanedUpToOffset === null ? none : <Count value={row.cleanedUpToOffset} />),
  },
  {
    id: 'lastCleaned',
    header: 'Last cleaned',
    cell: (row) =>
      row.lastCleanedAtMs === null ? (
        <span className="text-zinc-500 dark:text-zinc-400">not since start</span>
      ) : (
        <Timestamp epochMs={row.lastCleanedAtMs} />
      ),
  },
  {
    id: 'lastRemoved',
    header: 'Removed (last clean)',
    align: 'right',
    cell: (row) =>
      row.lastCleanRemovedBytes === null ? none : <ByteSize bytes={row.lastCleanRemovedBytes} />,
  },
  {
    id: 'removedTotal',
    header: 'Removed (since start)',
    align: 'right',
    cell: (row) => <ByteSize bytes={row.removedBytesTotal} />,
  },
  { id: 'nextClean', header: 'Next clean', cell: (row) => <NextClean replica={row} /> },
  {
    id: 'lastError',
    header: 'Last error',
    cell: (row) =>
      row.lastError === null ? (
        none
      ) : (
        <span className="inline-flex items-center gap-1.5">
          <Badge tone="danger">failed</Badge>
          <span className="text-rose-700 dark:text-rose-300">{row.lastError}</span>
        </span>
      ),
  },
];

/**
 * The log cleaner's state of a compacted topic, one row per replica (each broker cleans its own):
 * how dirty it is against min.cleanable.dirty.ratio, the last clean and what it removed, and when
 * the next is due. Nothing is shown for a topic that does not compact.
 */
export function TopicLogCleaner({ topic }: { topic: string }) {
  const trpc = useTRPC();
  const query = useQuery({ ...trpc.topics.logCleaner.queryOptions({ topic }), refetchInterval: 5_000 });
  // Drawn once the answer says the topic compacts (or the read failed), so a topic that does not
  // compact never shows the panel, not even while it loads.
  if (query.data === undefined ? query.error === null : !query.data.compacted) return null;
  return (
    <Panel title="Log cleaner" actions={<QueryAsOf query={query} />} flush>
      <QueryState query={query} errorTitle="Could not read the log cleaner's state">
        {(data) => (
          <DataTable
            label="Log cleaner"
            columns={columns}
            rows={data.replicas}
            rowKey={(row) => `${row.partition}:${row.brokerId}`}
            empty="The log cleaner has not looked at this topic since its broker started; it looks every log.cleaner.backoff.ms."
          />
        )}
      </QueryState>
    </Panel>
  );
}
