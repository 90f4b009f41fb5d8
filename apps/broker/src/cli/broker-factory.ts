import type { BrokerConfig } from '../config/broker-config';
import type { GroupMetricsSnapshot } from '../http/group-metrics';
import type { ReadinessCheck } from '../http/health-server';
import type { BrokerMetrics } from '../http/metrics';
import type { PartitionStats } from '../http/partition-metrics';
import type { Logger } from '../logger';

/** What `broker start` needs from the broker; the `Broker` class in `broker.ts` provides it. */
export interface BrokerHandle {
  start(): Promise<void>;
  /** Graceful: stop accepting, finish in-flight requests, flush, write checkpoints. */
  stop(): Promise<void>;
  readiness(): ReadinessCheck[];
  partitionStats(): PartitionStats[];
  groupStats(): GroupMetricsSnapshot;
}

export interface BrokerDependencies {
  logger: Logger;
  metrics: BrokerMetrics;
}

/** Builds the broker; injected so the CLI can be tested with a fake and `main.ts` picks the real one. */
export type BrokerFactory = (
  config: BrokerConfig,
  deps: BrokerDependencies,
) => BrokerHandle | Promise<BrokerHandle>;
