import {
  Broker,
  type BrokerConfigInput,
  type BrokerMetrics,
  brokerConfigSchema,
  createBrokerMetrics,
  createLogger,
} from '@weir/broker';
import { BrokerPhaseProbe } from './broker-phase-probe';

export interface WeirBrokerInput {
  dataDir: string;
  /** flush.ms: acks=1 answers after the write, and an fdatasync follows within this. */
  flushMs: number;
  /** group.initial.rebalance.delay.ms; default 0 so kafkajs's consumer starts at once. */
  initialRebalanceDelayMs?: number;
  /**
   * Merged into the client listener (securityProtocol, saslMechanisms, tls with file paths), which
   * stays on an ephemeral loopback port; for the security benchmark.
   */
  clientListener?: Omit<ClientListenerInput, 'host' | 'port' | 'advertisedHost'>;
  /** The `security` section (bootstrapAdmin, authFailureDelayMs, …). */
  security?: BrokerConfigInput['security'];
  /** The `log.cleaner` section, for the compaction benchmark. */
  cleaner?: NonNullable<BrokerConfigInput['log']>['cleaner'];
  /** Where a CPU profile of each timed phase is written; none are taken without it. */
  cpuProfileDir?: string;
}

type ClientListenerInput = NonNullable<NonNullable<BrokerConfigInput['listeners']>['client']>;

/**
 * A Weir broker in its own process, as `weir broker start` builds it (same config schema, logger
 * and metrics) minus the health and metrics HTTP servers, on an ephemeral loopback port. Groups
 * rebalance without the initial delay unless the input sets one. The answer carries the internal
 * listener's port and its token (generated into the data directory) for the console benchmark;
 * `metrics` lets a task that wraps this one observe the broker's requests. `phase` brackets a
 * timed phase the parent announces (event-loop delay, and a CPU profile with `cpuProfileDir`).
 */
export async function weirBroker(input: WeirBrokerInput, metrics: BrokerMetrics = createBrokerMetrics()) {
  const config = brokerConfigSchema.parse({
    dataDir: input.dataDir,
    listeners: {
      client: { ...input.clientListener, host: '127.0.0.1', port: 0 },
      internal: { host: '127.0.0.1', port: 0 },
    },
    log: { flushMs: input.flushMs, ...(input.cleaner === undefined ? {} : { cleaner: input.cleaner }) },
    groups: { initialRebalanceDelayMs: input.initialRebalanceDelayMs ?? 0 },
    logging: { level: 'warn' },
    ...(input.security === undefined ? {} : { security: input.security }),
  });
  const broker = new Broker(config, {
    logger: createLogger({ level: 'warn', destination: process.stderr }),
    metrics,
  });
  await broker.start();
  const probe = new BrokerPhaseProbe(input.cpuProfileDir);
  return {
    value: {
      port: broker.clientPort,
      internalPort: broker.internalPort ?? 0,
      internalToken: broker.internalToken ?? '',
    },
    phase: probe,
    stop: async () => {
      probe.close();
      await broker.stop();
    },
  };
}
