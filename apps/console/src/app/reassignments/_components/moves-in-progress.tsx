'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ActionButton,
  Button,
  DataTable,
  type DataTableColumn,
  Dialog,
  EmptyState,
  formatBytes,
  ProgressBar,
  showBidiControls,
} from '@weir/ui';
import Link from 'next/link';
import { useState } from 'react';
import type { MoveResults, ReassignmentRow } from '../../../server/api/schemas/reassignments';
import { gatewayError } from '../../../trpc/errors';
import { useTRPC } from '../../../trpc/react';
import { ActionGate } from '../../_components/action-gate';
import { ListPanel } from '../../_components/list-panel';
import { MoveResultList } from './move-result-list';

/** How often the list is read again while a move runs: progress is only worth watching then. */
const REFRESH_WHILE_MOVING_MS = 2_000;

/** One adding replica's bar: copied bytes over the leader's size, or "in sync" once it joined the ISR. */
function ReplicaProgress({ row }: { row: ReassignmentRow }) {
  if (row.progress.length === 0) return <span className="text-xs text-zinc-500">nothing to copy</span>;
  return (
    <ul className="flex flex-col gap-1">
      {row.progress.map((replica) => {
        const copied = replica.copiedBytes === null ? 'unknown' : formatBytes(replica.copiedBytes);
        const of = row.leaderSizeBytes === null ? 'unknown' : formatBytes(row.leaderSizeBytes);
        return (
          <li key={replica.brokerId} className="flex items-center gap-2 text-xs">
            <span className="w-16 shrink-0">broker {replica.brokerId}</span>
            <ProgressBar
              label={`Broker ${replica.brokerId}'s copy of ${row.topic}-${row.partition}`}
              fraction={replica.fraction ?? 0}
              valueText={replica.inSync ? 'in sync' : `${copied} of ${of}`}
            />
          </li>
        );
      })}
    </ul>
  );
}

/**
 * The moves in progress, read again every two seconds while any runs, each with a bar per new
 * replica and a Cancel button; "Cancel all" asks first. Cancelling puts the replicas back to the
 * ones before the move (the broker refuses when none of them is in sync any more).
 */
export function MovesInProgress() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const query = useQuery({
    ...trpc.reassignments.list.queryOptions({}),
    refetchInterval: (current) =>
      (current.state.data?.reassignments.length ?? 0) > 0 ? REFRESH_WHILE_MOVING_MS : false,
  });
  const [confirmAll, setConfirmAll] = useState(false);
  const [results, setResults] = useState<MoveResults | null>(null);
  const cancel = useMutation(
    trpc.reassignments.cancel.mutationOptions({
      onSuccess: async (answer) => {
        setResults(answer);
        setConfirmAll(false);
        await queryClient.invalidateQueries(trpc.reassignments.pathFilter());
      },
    }),
  );
  const permission = query.data?.allowedActions.reassign;
  const columns: readonly DataTableColumn<ReassignmentRow>[] = [
    {
      id: 'partition',
      header: 'Partition',
      cell: (row) => (
        <Link
          className="font-medium underline-offset-2 hover:underline"
          href={`/topics/${encodeURIComponent(row.topic)}`}
        >
          {showBidiControls(row.topic)}-{row.partition}
        </Link>
      ),
    },
    {
      id: 'replicas',
      header: 'Replicas → target',
      className: 'font-mono text-xs',
      cell: (row) => `${row.replicas.join(',')} → ${row.targetReplicas.join(',')}`,
    },
    {
      id: 'removing',
      header: 'Removing',
      className: 'font-mono text-xs',
      cell: (row) => (row.removingReplicas.length === 0 ? '—' : row.removingReplicas.join(',')),
    },
    {
      id: 'leader',
      header: 'Leader, ISR',
      className: 'font-mono text-xs',
      cell: (row) => `${row.leaderId < 0 ? 'none' : row.leaderId}; ${row.isr.join(',')}`,
    },
    { id: 'progress', header: 'New replicas', cell: (row) => <ReplicaProgress row={row} /> },
    {
      id: 'cancel',
      header: '',
      cell: (row) => (
        <ActionGate permission={permission}>
          <Button
            size="sm"
            disabled={cancel.isPending}
            aria-label={`Cancel the move of ${row.topic}-${row.partition}`}
            onClick={() => cancel.mutate({ partitions: [{ topic: row.topic, partition: row.partition }] })}
          >
            Cancel
          </Button>
        </ActionGate>
      ),
    },
  ];
  return (
    <ListPanel title="Moves in progress" query={query} errorTitle="Could not read the moves in progress">
      {(list) => (
        <>
          {list.unansweredBrokers.length === 0 ? null : (
            <div
              role="alert"
              className="border-b border-amber-300 bg-amber-50 px-4 py-2 text-sm dark:bg-amber-950"
            >
              {list.unansweredBrokers.map((broker) => (
                <p key={broker.brokerId}>
                  Broker {broker.brokerId} did not report its log sizes, so its copies show as unknown:{' '}
                  {broker.detail}
                </p>
              ))}
            </div>
          )}
          {list.reassignments.length === 0 ? (
            <EmptyState title="No partition is being moved">
              To start one, choose a topic, its partitions and the target replicas under “Move partitions”
              below, or preview the drain of a broker; both show the plan before anything moves.
            </EmptyState>
          ) : (
            <>
              <div className="flex items-center justify-between gap-3 px-4 pt-2">
                <p className="text-sm text-zinc-600 dark:text-zinc-300">
                  {list.reassignments.length} {list.reassignments.length === 1 ? 'move runs' : 'moves run'}; a
                  move completes once every new replica is in sync.
                </p>
                <ActionGate permission={permission}>
                  <ActionButton variant="danger" size="sm" onClick={() => setConfirmAll(true)}>
                    Cancel all
                  </ActionButton>
                </ActionGate>
              </div>
              <DataTable
                label="Moves in progress"
                columns={columns}
                rows={list.reassignments}
                rowKey={(row) => `${row.topic}\u0000${row.partition}`}
              />
            </>
          )}
          {cancel.error ? (
            <p role="alert" className="px-4 pb-2 text-rose-700 text-sm dark:text-rose-400">
              {gatewayError(cancel.error).message}
            </p>
          ) : null}
          {results === null ? null : (
            <div className="px-4 pb-3">
              <MoveResultList results={results} verb="cancelled" />
            </div>
          )}
          <Dialog
            open={confirmAll}
            title="Cancel every move"
            onClose={() => setConfirmAll(false)}
            footer={
              <>
                <Button onClick={() => setConfirmAll(false)}>Keep them</Button>
                <Button variant="danger" disabled={cancel.isPending} onClick={() => cancel.mutate({})}>
                  Cancel {list.reassignments.length} {list.reassignments.length === 1 ? 'move' : 'moves'}
                </Button>
              </>
            }
          >
            Every partition being moved goes back to the replicas it had before its move; the copies the new
            replicas made so far are deleted.
          </Dialog>
        </>
      )}
    </ListPanel>
  );
}
