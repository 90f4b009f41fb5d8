import type { BrokerConfig } from '../config/broker-config';
import type { CoordinatorLogger } from '../coordination/coordinator-shards';
import type { GroupScheduler } from '../group/group-scheduler';
import type { BrokerMetrics } from '../http/metrics';
import type { ClusterView } from '../metadata/cluster-view';
import type { ProducerIdManager } from '../producer-ids/producer-id-manager';
import type { CoordinatorLogAccess } from '../topics/internal-topic-records';
import type { TopicManager } from '../topics/topic-manager';
import type { TransactionOffsetsSink } from './transaction-completion';
import type { TransactionMarkerWriter } from './transaction-contracts';
import { TransactionCoordinator } from './transaction-coordinator';
import { TransactionLog } from './transaction-log';

/** How long a completion whose markers or offsets could not be written waits before trying again. */
const COMPLETION_RETRY_MS = 1000;

export interface BrokerTransactionsDeps {
  config: BrokerConfig['transactions'];
  /** Creates `__transaction_state` on first use. */
  topics: TopicManager;
  view: ClusterView;
  /** Where the coordinator's shards write and replay their partitions. */
  logs: CoordinatorLogAccess;
  markers: TransactionMarkerWriter;
  /** Where a committed transaction's offsets go: the group's coordinator, here or on another broker. */
  offsets: TransactionOffsetsSink;
  producers: ProducerIdManager;
  scheduler: GroupScheduler;
  logger: CoordinatorLogger;
  metrics: BrokerMetrics;
}

/**
 * The broker's transaction coordinator and the `__transaction_state` log it persists to, wired to
 * the partitions (markers), the group coordinator (offsets), the producer id allocator and the
 * metrics. Shards replay from the same log. The broker opens and loads the log before its
 * listeners start and recovers prepared transactions once the groups are loaded.
 */
export function createBrokerTransactions(deps: BrokerTransactionsDeps): {
  log: TransactionLog;
  coordinator: TransactionCoordinator;
} {
  const { config, view, metrics } = deps;
  const log = new TransactionLog(
    deps.topics,
    view,
    deps.logs,
    deps.scheduler,
    config.stateTopicReplicationFactor,
  );
  const coordinator = new TransactionCoordinator({
    config: {
      maxTimeoutMs: config.maxTimeoutMs,
      idExpirationMs: config.idExpirationMs,
      abortTimedOutCheckIntervalMs: config.abortTimedOutCheckIntervalMs,
      completionRetryMs: COMPLETION_RETRY_MS,
    },
    store: log,
    source: log,
    scheduler: deps.scheduler,
    logger: deps.logger,
    markers: deps.markers,
    offsets: deps.offsets,
    catalog: { hasPartition: (topic, partition) => view.hasPartition(topic, partition) },
    observer: {
      openTransactionsChanged: (open) => metrics.transactionsOpen.set(open),
      transactionCompleted: (result, durationMs) => {
        metrics.transactionsTotal.inc({ result });
        metrics.transactionDurationSeconds.observe(durationMs / 1000);
      },
    },
    allocateProducerId: () => deps.producers.allocateProducerId(),
  });
  return { log, coordinator };
}
