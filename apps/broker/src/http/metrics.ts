import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { ReplicationHealth } from '../cluster/replication-health';
import { type ClusterRoleMetrics, registerClusterRoleMetrics } from './cluster-role-metrics';
import { type GroupMetricsSnapshot, registerGroupMetrics } from './group-metrics';
import { type LogCleanerPartitionStats, registerLogCleanerMetrics } from './log-cleaner-metrics';
import { type PartitionStats, registerPartitionGauges } from './partition-metrics';
import { type ReplicationCounters, registerReplicationMetrics } from './replication-metrics';
import { registerStorageHealthGauges, type StorageHealthStats } from './storage-health-metrics';

/** The broker's metrics: one registry, and a typed handle for everything the broker counts. */
export interface BrokerMetrics {
  registry: Registry;
  /** Requests received, by API name (e.g. `Produce`) and API version. */
  requestsTotal: Counter<'api' | 'version'>;
  /** Time from a request's arrival to its response being queued, by API name. */
  requestDurationSeconds: Histogram<'api'>;
  /** Error codes returned, by API name and Kafka error name (e.g. `NOT_LEADER_OR_FOLLOWER`). */
  requestErrorsTotal: Counter<'api' | 'error'>;
  /** Record batch bytes appended by producers, by topic. */
  bytesInTotal: Counter<'topic'>;
  /** Record batch bytes returned to fetchers, by topic. */
  bytesOutTotal: Counter<'topic'>;
  recordsInTotal: Counter<'topic'>;
  recordsOutTotal: Counter<'topic'>;
  /** Client connections open now. */
  connections: Gauge;
  /** Connections refused or closed by a limit, by reason (e.g. `max_connections`). */
  connectionsRejectedTotal: Counter<'reason'>;
  /** Disk operations that failed (each takes a partition offline or fails a request). */
  storageErrorsTotal: Counter;
  /** Finished SASL exchanges, by mechanism and result (`success` or `failure`). */
  authenticationsTotal: Counter<'mechanism' | 'result'>;
  /** Transactions open now (from the first added partition until the outcome is recorded). */
  transactionsOpen: Gauge;
  /** Transactions ended, by result (`commit` or `abort`). */
  transactionsTotal: Counter<'result'>;
  /** Time from a transaction's first added partition to its recorded outcome. */
  transactionDurationSeconds: Histogram;
  /**
   * Usage charged to client quotas, by quota key and the configured entity that applied (so the
   * labels are bounded by the quotas configured, not by clients): bytes for the byte rates,
   * percent-seconds of one handler for request_percentage.
   */
  quotaUsageTotal: Counter<'quota' | 'entity'>;
  /** Throttle time given to clients over a quota, by quota key and configured entity. */
  quotaThrottleSecondsTotal: Counter<'quota' | 'entity'>;
  /** Sets where the partition gauges come from; called again, it replaces the previous source. */
  registerPartitionCollector(collect: () => PartitionStats[]): void;
  /** Sets where the consumer-group metrics (members, state, lag, rebalances) come from. */
  registerGroupCollector(collect: () => GroupMetricsSnapshot): void;
  /** Sets where the counts of offline and write-degraded partitions come from. */
  registerStorageHealthCollector(collect: () => StorageHealthStats): void;
  /** Sets where the log cleaner's per-partition state (`weir_log_cleaner_*`) comes from. */
  registerLogCleanerCollector(collect: () => LogCleanerPartitionStats[]): void;
  /** ISR shrinks and expands, leader elections (clean and unclean), counted as they are stored. */
  replication: ReplicationCounters;
  /** Sets where the replication gauges (ISR shortfalls, leaderless partitions, follower lag) come from. */
  registerReplicationCollector(collect: () => ReplicationHealth): void;
  /** Whether this broker is the controller (`weir_controller_active`), and its session starts. */
  clusterRole: ClusterRoleMetrics;
  /** Warnings strangers can cause (refusals, bad frames), by kind, whether written or not. */
  logWarningsTotal: Counter<'kind'>;
  /** Of those, the ones not written because their kind went past its lines per interval. */
  logWarningsSuppressedTotal: Counter<'kind'>;
  /** Sets where `weir_request_held_bytes` (request bytes read and not yet handled) comes from. */
  registerHeldRequestBytes(read: () => number): void;
  /** Drops the per-topic series of a deleted topic, so they do not linger until restart. */
  removeTopic(topic: string): void;
}

/**
 * Request latencies span sub-millisecond produces to long-polling fetches that wait up to
 * max_wait_ms (500 ms by default in most clients, sometimes seconds), hence the wide range.
 */
const REQUEST_DURATION_BUCKETS_SECONDS = [
  0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30,
];

/**
 * Transactions last from milliseconds (a kafkajs send and commit) to their timeout (Kafka's
 * default maximum is 15 minutes).
 */
const TRANSACTION_DURATION_BUCKETS_SECONDS = [
  0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900,
];

const NON_CONFORMING_DEFAULT_METRICS = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
];

/**
 * Creates a fresh registry with the broker's metrics and the Node.js process metrics, all prefixed
 * `weir_`. Each call is independent (no global registry), so tests and embedded brokers don't clash.
 */
export function createBrokerMetrics(): BrokerMetrics {
  const registry = new Registry();
  const registers = [registry];
  collectDefaultMetrics({ register: registry, prefix: 'weir_' });
  // prom-client names three gauges `..._total`, which Prometheus reserves for counters (promtool
  // rejects them). Each only sums a gauge that stays, labelled by type, so nothing is lost.
  for (const name of NON_CONFORMING_DEFAULT_METRICS) registry.removeSingleMetric(`weir_${name}`);

  const topicCounter = (name: string, help: string): Counter<'topic'> =>
    new Counter({ name, help, labelNames: ['topic'], registers });

  const bytesInTotal = topicCounter('weir_topic_in_bytes_total', 'Record batch bytes appended to a topic.');
  const bytesOutTotal = topicCounter(
    'weir_topic_out_bytes_total',
    'Record batch bytes fetched from a topic.',
  );
  const recordsInTotal = topicCounter('weir_topic_in_records_total', 'Records appended to a topic.');
  const recordsOutTotal = topicCounter('weir_topic_out_records_total', 'Records fetched from a topic.');
  const setPartitionCollector = registerPartitionGauges(registry, () => {
    collectorErrorsTotal.inc({ collector: 'partitions' });
  });
  const setGroupCollector = registerGroupMetrics(registry, () => {
    collectorErrorsTotal.inc({ collector: 'groups' });
  });
  const setStorageHealthCollector = registerStorageHealthGauges(registry, () => {
    collectorErrorsTotal.inc({ collector: 'storage-health' });
  });
  const setLogCleanerCollector = registerLogCleanerMetrics(registry, () => {
    collectorErrorsTotal.inc({ collector: 'log-cleaner' });
  });
  const replication = registerReplicationMetrics(registry, () => {
    collectorErrorsTotal.inc({ collector: 'replication' });
  });
  const clusterRole = registerClusterRoleMetrics(registry);
  // Registered after the collected gauges: a scrape reads metrics in registration order, so a
  // collector failure counted during this scrape already shows in it.
  const collectorErrorsTotal = new Counter({
    name: 'weir_metrics_collector_errors_total',
    help: 'Scrapes in which a collector failed; its metrics were left empty for that scrape.',
    labelNames: ['collector'],
    registers,
  });

  let readHeldRequestBytes = (): number => 0;
  new Gauge({
    name: 'weir_request_held_bytes',
    help: 'Request bytes read from client connections and not yet handled: incomplete and queued frames.',
    registers,
    collect() {
      this.set(readHeldRequestBytes());
    },
  });

  return {
    registry,
    clusterRole,
    requestsTotal: new Counter({
      name: 'weir_requests_total',
      help: 'Kafka protocol requests received.',
      labelNames: ['api', 'version'],
      registers,
    }),
    requestDurationSeconds: new Histogram({
      name: 'weir_request_duration_seconds',
      help: 'Time from receiving a Kafka protocol request to queueing its response.',
      labelNames: ['api'],
      buckets: REQUEST_DURATION_BUCKETS_SECONDS,
      registers,
    }),
    requestErrorsTotal: new Counter({
      name: 'weir_request_errors_total',
      help: 'Kafka error codes returned in responses, by the Kafka error name.',
      labelNames: ['api', 'error'],
      registers,
    }),
    bytesInTotal,
    bytesOutTotal,
    recordsInTotal,
    recordsOutTotal,
    connections: new Gauge({ name: 'weir_connections', help: 'Client connections open now.', registers }),
    connectionsRejectedTotal: new Counter({
      name: 'weir_connections_rejected_total',
      help: 'Client connections refused or closed early: a limit, a bad request, authentication or a TLS handshake.',
      labelNames: ['reason'],
      registers,
    }),
    storageErrorsTotal: new Counter({
      name: 'weir_storage_errors_total',
      help: 'Disk operations on partition logs that failed.',
      registers,
    }),
    authenticationsTotal: new Counter({
      name: 'weir_authentications_total',
      help: 'Finished SASL authentications, by mechanism and result (success or failure).',
      labelNames: ['mechanism', 'result'],
      registers,
    }),
    transactionsOpen: new Gauge({
      name: 'weir_transactions_open',
      help: 'Transactions open now, from their first added partition until their outcome is recorded.',
      registers,
    }),
    transactionsTotal: new Counter({
      name: 'weir_transactions_total',
      help: 'Transactions ended, by result (commit or abort).',
      labelNames: ['result'],
      registers,
    }),
    transactionDurationSeconds: new Histogram({
      name: 'weir_transaction_duration_seconds',
      help: "Time from a transaction's first added partition to its recorded commit or abort.",
      buckets: TRANSACTION_DURATION_BUCKETS_SECONDS,
      registers,
    }),
    logWarningsTotal: new Counter({
      name: 'weir_log_warnings_total',
      help: 'Warnings about refused connections, frames, requests and authentications, by kind, written or not.',
      labelNames: ['kind'],
      registers,
    }),
    logWarningsSuppressedTotal: new Counter({
      name: 'weir_log_warnings_suppressed_total',
      help: 'Warnings not written because their kind passed logging.maxWarningsPerInterval.',
      labelNames: ['kind'],
      registers,
    }),
    quotaUsageTotal: new Counter({
      name: 'weir_quota_usage_total',
      help: 'Usage charged to client quotas by configured quota entity: bytes for producer_byte_rate and consumer_byte_rate, percent-seconds of one request handler for request_percentage.',
      labelNames: ['quota', 'entity'],
      registers,
    }),
    quotaThrottleSecondsTotal: new Counter({
      name: 'weir_quota_throttle_seconds_total',
      help: 'Throttle time given to clients over a quota (answers carry it and the connection is muted for it), by configured quota entity.',
      labelNames: ['quota', 'entity'],
      registers,
    }),
    registerPartitionCollector: setPartitionCollector,
    registerGroupCollector: setGroupCollector,
    registerStorageHealthCollector: setStorageHealthCollector,
    registerLogCleanerCollector: setLogCleanerCollector,
    replication: replication.counters,
    registerReplicationCollector: replication.setCollector,
    registerHeldRequestBytes(read) {
      readHeldRequestBytes = read;
    },
    removeTopic(topic) {
      for (const counter of [bytesInTotal, bytesOutTotal, recordsInTotal, recordsOutTotal]) {
        counter.remove({ topic });
      }
    },
  };
}
