'use client';

import { CopyButton, DataTable, type DataTableColumn, formatBytes, showBidiControls } from '@weir/ui';
import type { ReassignmentPlan } from '../../../server/api/schemas/reassignments';

/** A planned move or a refused one, in one table so every partition named has its row. */
type PlanRow =
  | { kind: 'move'; move: ReassignmentPlan['moves'][number] }
  | { kind: 'refused'; refused: ReassignmentPlan['refused'][number] };

const list = (ids: readonly number[] | null) => (ids === null || ids.length === 0 ? '—' : ids.join(','));

const columns: readonly DataTableColumn<PlanRow>[] = [
  {
    id: 'partition',
    header: 'Partition',
    cell: (row) => {
      const { topic, partition } = row.kind === 'move' ? row.move : row.refused;
      return `${showBidiControls(topic)}-${partition}`;
    },
  },
  {
    id: 'replicas',
    header: 'Current → target',
    className: 'font-mono text-xs',
    cell: (row) =>
      row.kind === 'move'
        ? `${list(row.move.currentReplicas)} → ${list(row.move.replicas)}`
        : `${list(row.refused.currentReplicas)} → ${list(row.refused.replicas)}`,
  },
  {
    id: 'adding',
    header: 'Adding',
    className: 'font-mono text-xs',
    cell: (row) => (row.kind === 'move' ? list(row.move.addingReplicas) : ''),
  },
  {
    id: 'removing',
    header: 'Removing',
    className: 'font-mono text-xs',
    cell: (row) => (row.kind === 'move' ? list(row.move.removingReplicas) : ''),
  },
  {
    id: 'bytes',
    header: 'Data to copy',
    align: 'right',
    cell: (row) =>
      row.kind !== 'move'
        ? ''
        : row.move.bytesToCopy === null
          ? 'unknown'
          : formatBytes(row.move.bytesToCopy),
  },
  {
    id: 'leader',
    header: 'Leader moves',
    cell: (row) => (row.kind === 'move' ? (row.move.leaderMoves ? 'yes' : 'no') : ''),
  },
  {
    id: 'problem',
    header: 'Problem',
    cell: (row) =>
      row.kind === 'refused' ? (
        <span className="whitespace-normal text-rose-700 text-xs dark:text-rose-400">
          Not moved: {row.refused.problem}
        </span>
      ) : row.move.replacesMoveInProgress ? (
        <span className="whitespace-normal text-amber-700 text-xs dark:text-amber-300">
          replaces the move in progress
        </span>
      ) : null,
  },
];

/**
 * The preview of a plan: current → target per partition, what is added and removed, how much data
 * the new replicas copy and whether leadership moves, with its totals; refused rows say why in
 * words and are left out when the plan is executed.
 */
export function PlanTable({ plan, label }: { plan: ReassignmentPlan; label: string }) {
  const rows: PlanRow[] = [
    ...plan.moves.map((move) => ({ kind: 'move' as const, move })),
    ...plan.refused.map((refused) => ({ kind: 'refused' as const, refused })),
  ];
  const { totals } = plan;
  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm" role="status">
          {totals.partitionsMoving} {totals.partitionsMoving === 1 ? 'partition moves' : 'partitions move'},{' '}
          {formatBytes(totals.bytesToCopy)} to copy
          {totals.unknownSizeMoves === 0 ? '' : ` (and ${totals.unknownSizeMoves} of unknown size)`},{' '}
          {totals.leadersMoving} {totals.leadersMoving === 1 ? 'leader moves' : 'leaders move'}
          {plan.refused.length === 0 ? '.' : `; ${plan.refused.length} cannot move.`}
        </p>
        {/* Kafka's reassignment JSON, so the plan can be kept, edited and run by kafka-reassign-partitions.sh. */}
        {plan.moves.length === 0 ? null : (
          <CopyButton label="Copy as Kafka JSON" text={() => plan.kafkaJson} />
        )}
      </div>
      {plan.unansweredBrokers.map((broker) => (
        <p key={broker.brokerId} role="alert" className="text-amber-700 text-xs dark:text-amber-300">
          Broker {broker.brokerId} did not report its log sizes: {broker.detail}
        </p>
      ))}
      <DataTable
        label={label}
        columns={columns}
        rows={rows}
        rowKey={(row) => {
          const { topic, partition } = row.kind === 'move' ? row.move : row.refused;
          return `${row.kind}\u0000${topic}\u0000${partition}`;
        }}
        empty={<p className="px-4 py-6 text-center text-sm text-zinc-500">Nothing to move.</p>}
        maxHeightClassName="max-h-96"
      />
    </div>
  );
}
