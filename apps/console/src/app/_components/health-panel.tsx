import { Panel, StatusBadge, type StatusTone } from '@weir/ui';
import type { ReactNode } from 'react';
import type { ClusterOverview } from '../../server/api/schemas/cluster';

const statusTone: Record<ClusterOverview['health']['status'], StatusTone> = {
  healthy: 'ok',
  degraded: 'warning',
  unreachable: 'error',
  restricted: 'neutral',
};

type HealthPanelProps = { health: ClusterOverview['health']; brokerAddress: string; asOf: ReactNode };

/** Health as a list of concrete checks, failing ones first, never as a bare light. */
export function HealthPanel({ health, brokerAddress, asOf }: HealthPanelProps) {
  return (
    <Panel
      title="Cluster health"
      actions={
        <>
          {asOf}
          <StatusBadge tone={statusTone[health.status]}>{health.status}</StatusBadge>
        </>
      }
    >
      <p className="mb-3 text-xs text-zinc-500 dark:text-zinc-400">
        Gateway → broker at <code className="font-mono">{brokerAddress}</code>
      </p>
      <ul aria-label="Health reasons" className="flex flex-col gap-1.5 text-sm">
        {health.reasons.map((reason) => (
          <li key={`${reason.check}-${reason.detail}`} className="flex items-start gap-2">
            <span
              aria-hidden="true"
              className={`mt-1.5 size-2 shrink-0 rounded-full ${reason.ok ? 'bg-emerald-500' : 'bg-rose-500'}`}
            />
            <span>
              <span className="font-medium">{reason.check}</span>
              <span className="sr-only">{reason.ok ? ' (passing)' : ' (failing)'}</span>
              <span className="text-zinc-500 dark:text-zinc-400"> — {reason.detail}</span>
            </span>
          </li>
        ))}
      </ul>
    </Panel>
  );
}
