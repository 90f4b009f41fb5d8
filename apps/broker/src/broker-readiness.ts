import type { GroupCoordinator } from './group/group-coordinator';
import type { ReadinessCheck } from './http/health-server';
import type { ReplicaManager } from './replica/replica-manager';
import type { TransactionCoordinator } from './txn/transaction-coordinator';

/** What the broker's readiness is read from, as of the moment `/ready` asks. */
export interface ReadinessSources {
  /** Whether start has recovered the logs and loaded the transaction state the listeners need. */
  storageReady: boolean;
  /** Whether the listeners serve (bound, opened at the end of the start, and not yet stopping). */
  listening: boolean;
  replicas: Pick<ReplicaManager, 'offlinePartitions'>;
  groupCoordinator: Pick<GroupCoordinator, 'loadState'>;
  transactionCoordinator: Pick<TransactionCoordinator, 'readiness'>;
  clientListener: { readonly port: number };
  /** Undefined when the internal listener is disabled; it then has no check. */
  internalListener: { readonly port: number } | undefined;
}

/** What `/ready` reports: each check and whether it passes. */
export function brokerReadiness(sources: ReadinessSources): ReadinessCheck[] {
  const { storageReady, listening, internalListener } = sources;
  const offline = sources.replicas.offlinePartitions();
  return [
    { name: 'storage', ok: storageReady, detail: storageReady ? 'recovered' : 'recovering' },
    {
      name: 'partitions',
      ok: offline.length === 0,
      detail:
        offline.length === 0
          ? 'all online'
          : `${offline.length} offline: ${offline.map((p) => `${p.topic}-${p.partition}`).join(', ')}`,
    },
    coordinatorsCheck(sources.groupCoordinator),
    { name: 'transactions', ...sources.transactionCoordinator.readiness() },
    {
      name: 'client-listener',
      ok: listening,
      detail: listening ? `port ${sources.clientListener.port}` : 'not serving',
    },
    ...(internalListener === undefined
      ? []
      : [
          {
            name: 'internal-listener',
            ok: listening,
            detail: listening ? `port ${internalListener.port}` : 'not serving',
          },
        ]),
  ];
}

function coordinatorsCheck(groupCoordinator: Pick<GroupCoordinator, 'loadState'>): ReadinessCheck {
  const state = groupCoordinator.loadState();
  if (!state.loaded) {
    return {
      name: 'coordinators',
      ok: false,
      detail: `loading ${state.loadingPartitions} __consumer_offsets partitions`,
    };
  }
  if (state.failedPartitions.length > 0) {
    return {
      name: 'coordinators',
      ok: false,
      detail: `__consumer_offsets partitions failed to load: ${state.failedPartitions.join(', ')}`,
    };
  }
  return { name: 'coordinators', ok: true, detail: 'groups loaded' };
}
