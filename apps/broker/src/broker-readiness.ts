import type { PartitionIsrShortfall, ReplicationHealth } from './cluster/replication-health';
import type { GroupCoordinator } from './group/group-coordinator';
import type { ReadinessCheck, ReadinessProblem } from './http/health-server';
import type { ReplicaManager } from './replica/replica-manager';
import type { TransactionCoordinator } from './txn/transaction-coordinator';

/** What the broker's readiness is read from, as of the moment `/ready` asks. */
export interface ReadinessSources {
  /** Whether start has recovered the logs and loaded the transaction state the listeners need. */
  storageReady: boolean;
  /** Whether the listeners serve (bound, opened at the end of the start, and not yet stopping). */
  listening: boolean;
  /** Whether the broker is shutting down (the listeners then do not serve). */
  stopping: boolean;
  replicas: Pick<ReplicaManager, 'offlinePartitions' | 'writeDegradedPartitions'>;
  groupCoordinator: Pick<GroupCoordinator, 'loadState'>;
  transactionCoordinator: Pick<TransactionCoordinator, 'readiness'>;
  clientListener: { readonly port: number };
  /** Undefined when the internal listener is disabled; it then has no check. */
  internalListener: { readonly port: number } | undefined;
  /** The etcd store in cluster mode (undefined standalone, which has no such check). */
  cluster?: { health(): { ok: boolean; detail: string } } | undefined;
  /** ISR shortfalls of the partitions led here, and leaderless partitions on the controller. */
  replication?: ReplicationHealth | undefined;
}

/**
 * Problems listed per check at most; a failed disk can take thousands of partitions offline, and
 * the count in the detail still says how many there are.
 */
const MAX_PROBLEMS_LISTED = 100;

/**
 * What `/ready` reports: each check and whether it passes. Only what stops the broker serving
 * makes it not ready (storage not recovered yet, coordinators or transactions still loading,
 * listeners not serving, shutting down); a partition offline or out of disk space, or a
 * coordinator partition that failed to load, degrades it: the broker still serves everything
 * else, so taking it out of rotation would only make things worse (docs/architecture.md §9).
 */
export function brokerReadiness(sources: ReadinessSources): ReadinessCheck[] {
  const { storageReady, listening, internalListener } = sources;
  const notServing = sources.stopping ? 'shutting down' : 'not serving';
  return [
    // Without etcd a cluster broker cannot learn placement or keep its session: it is not ready.
    ...(sources.cluster === undefined ? [] : [{ name: 'etcd', ...sources.cluster.health() }]),
    { name: 'storage', ok: storageReady, detail: storageReady ? 'recovered' : 'recovering' },
    partitionsCheck(sources.replicas),
    ...(sources.replication === undefined ? [] : replicationChecks(sources.replication)),
    coordinatorsCheck(sources.groupCoordinator),
    { name: 'transactions', ...sources.transactionCoordinator.readiness() },
    {
      name: 'client-listener',
      ok: listening,
      detail: listening ? `port ${sources.clientListener.port}` : notServing,
    },
    ...(internalListener === undefined
      ? []
      : [
          {
            name: 'internal-listener',
            ok: listening,
            detail: listening ? `port ${internalListener.port}` : notServing,
          },
        ]),
  ];
}

/**
 * Offline partitions (damaged or failed storage: no reads, no writes, until repaired) and
 * partitions out of disk space (reads served, writes refused until space is freed).
 */
function partitionsCheck(
  replicas: Pick<ReplicaManager, 'offlinePartitions' | 'writeDegradedPartitions'>,
): ReadinessCheck {
  const offline = replicas.offlinePartitions();
  const writeDegraded = replicas.writeDegradedPartitions();
  if (offline.length === 0 && writeDegraded.length === 0) {
    return { name: 'partitions', ok: true, detail: 'all online' };
  }
  const problems: ReadinessProblem[] = [
    ...offline.map(({ topic, partition, reason }) => ({
      subject: `${topic}-${partition}`,
      state: 'offline',
      error: reason,
      action: `reads and writes get KAFKA_STORAGE_ERROR; see what is damaged with \`weir log check ${topic} ${partition}\`, then repair it with \`weir log repair ${topic} ${partition}\``,
    })),
    ...writeDegraded.map(({ topic, partition, reason, sinceMs }) => ({
      subject: `${topic}-${partition}`,
      state: 'out-of-space',
      error: reason,
      action:
        'reads are served, writes get KAFKA_STORAGE_ERROR (clients retry); free disk space on the data directory and writes resume by themselves within seconds',
      since: new Date(sinceMs).toISOString(),
    })),
  ];
  const parts = [];
  if (offline.length > 0) parts.push(`${offline.length} offline (${listed(problems, 'offline')})`);
  if (writeDegraded.length > 0) {
    parts.push(
      `${writeDegraded.length} refusing writes: out of disk space (${listed(problems, 'out-of-space')})`,
    );
  }
  return {
    name: 'partitions',
    ok: false,
    impact: 'degraded',
    detail: parts.join('; '),
    problems: problems.slice(0, MAX_PROBLEMS_LISTED),
  };
}

/**
 * `in-sync-replicas`: partitions led here below min.insync.replicas degrade the broker (acks=all is
 * refused there, acks=1 still served); partitions that are only under-replicated are a note on a
 * passing check, since every write is still served and acknowledged as configured. On the
 * controller, `leaderless-partitions`: partitions of the cluster nobody serves.
 */
function replicationChecks(health: ReplicationHealth): ReadinessCheck[] {
  const checks = [inSyncReplicasCheck(health)];
  if (health.leaderless !== undefined) checks.push(leaderlessCheck(health.leaderless));
  return checks;
}

function inSyncReplicasCheck({ underMinIsr, underReplicated }: ReplicationHealth): ReadinessCheck {
  if (underMinIsr.length > 0) {
    const problems = underMinIsr.map((shortfall) => ({
      subject: subjectOf(shortfall),
      state: 'under-min-isr',
      error: `ISR ${shortfall.isrCount} of ${shortfall.replicaCount}, min.insync.replicas ${shortfall.minInsyncReplicas}`,
      action:
        'produces with acks=all get NOT_ENOUGH_REPLICAS (acks=1 is served); bring the brokers of its replicas back (or lower min.insync.replicas on the topic) and the ISR expands by itself once they catch up',
    }));
    const onlyUnder = underReplicated.length - underMinIsr.length;
    const note = onlyUnder > 0 ? `; ${onlyUnder} more under-replicated` : '';
    return {
      name: 'in-sync-replicas',
      ok: false,
      impact: 'degraded',
      detail: `${underMinIsr.length} under min.insync.replicas, acks=all refused (${listed(problems, 'under-min-isr')})${note}`,
      problems: problems.slice(0, MAX_PROBLEMS_LISTED),
    };
  }
  if (underReplicated.length > 0) {
    const names = underReplicated.map(
      (shortfall) => `${subjectOf(shortfall)} ISR ${shortfall.isrCount} of ${shortfall.replicaCount}`,
    );
    return {
      name: 'in-sync-replicas',
      ok: true,
      detail: `note: ${underReplicated.length} under-replicated, acks=all still served (${firstFew(names)})`,
    };
  }
  return { name: 'in-sync-replicas', ok: true, detail: 'every partition led here has its full ISR' };
}

function leaderlessCheck(leaderless: readonly string[]): ReadinessCheck {
  if (leaderless.length === 0) {
    return { name: 'leaderless-partitions', ok: true, detail: 'every partition has a live leader' };
  }
  return {
    name: 'leaderless-partitions',
    ok: false,
    impact: 'degraded',
    detail: `${leaderless.length} without a live leader (${firstFew(leaderless)})`,
    problems: leaderless.slice(0, MAX_PROBLEMS_LISTED).map((subject) => ({
      subject,
      state: 'leaderless',
      error: 'no live in-sync or eligible replica',
      action:
        'no broker serves its reads or writes; restart a broker that held an in-sync replica and the controller elects it',
    })),
  };
}

function subjectOf({ topic, partition }: PartitionIsrShortfall): string {
  return `${topic}-${partition}`;
}

/** The first ten names, then how many more, for a one-line detail. */
function firstFew(names: readonly string[]): string {
  const shown = names.slice(0, 10).join(', ');
  return names.length > 10 ? `${shown} and ${names.length - 10} more` : shown;
}

/** The first few subjects in `state`, for the one-line detail. */
function listed(problems: readonly ReadinessProblem[], state: string): string {
  return firstFew(problems.filter((problem) => problem.state === state).map((problem) => problem.subject));
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
    // The groups of the other partitions are served; those of a failed one get COORDINATOR_NOT_AVAILABLE.
    return {
      name: 'coordinators',
      ok: false,
      impact: 'degraded',
      detail: `__consumer_offsets partitions failed to load: ${state.failedPartitions.join(', ')}`,
    };
  }
  return { name: 'coordinators', ok: true, detail: 'groups loaded' };
}
