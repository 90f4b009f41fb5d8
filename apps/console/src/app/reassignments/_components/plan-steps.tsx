'use client';

import { Button } from '@weir/ui';
import { MoveResultList } from './move-result-list';
import { PlanTable } from './plan-table';
import type { usePlanExecute } from './use-plan-execute';

type PlanStepsProps = {
  flow: ReturnType<typeof usePlanExecute>;
  /** Names the plan's table, e.g. "Drain plan". */
  label: string;
  onPreview: () => void;
  /** Why the user may not execute (their ACLs), or null. */
  deniedReason: string | null;
};

/** The Preview and Execute buttons under a form, the plan between them, and the broker's answer. */
export function PlanSteps({ flow, label, onPreview, deniedReason }: PlanStepsProps) {
  const count = flow.submittable.length;
  return (
    <div className="flex flex-col gap-3">
      {Object.keys(flow.errors).length === 0 ? null : (
        <ul role="alert" className="text-rose-700 text-sm dark:text-rose-400">
          {Object.entries(flow.errors).map(([field, message]) => (
            <li key={field}>{field === 'form' ? message : `${field}: ${message}`}</li>
          ))}
        </ul>
      )}
      <div className="flex flex-wrap items-center gap-2">
        <Button onClick={onPreview} disabled={flow.pending}>
          Preview
        </Button>
        <label className="flex items-center gap-1 text-xs text-zinc-600 dark:text-zinc-400">
          Throttle
          <input
            aria-label="Throttle in MiB/s"
            inputMode="decimal"
            placeholder="none"
            value={flow.throttleMiB}
            onChange={(event) => flow.setThrottleMiB(event.target.value)}
            className="w-20 rounded-md border border-zinc-300 bg-transparent px-2 py-1 text-sm dark:border-zinc-700"
          />
          MiB/s per broker
        </label>
        <Button
          variant="danger"
          onClick={flow.execute}
          disabled={flow.pending || flow.plan === null || count === 0 || deniedReason !== null}
          title={deniedReason ?? undefined}
        >
          {flow.plan === null ? 'Execute' : `Execute ${count} ${count === 1 ? 'move' : 'moves'}`}
        </Button>
        {deniedReason === null ? null : <span className="text-xs text-zinc-500">{deniedReason}</span>}
      </div>
      {flow.plan === null ? null : <PlanTable plan={flow.plan} label={label} />}
      {flow.results === null ? null : <MoveResultList results={flow.results} verb="started" />}
    </div>
  );
}
