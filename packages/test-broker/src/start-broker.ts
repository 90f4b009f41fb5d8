import {
  Broker,
  type BrokerConfigInput,
  type BrokerDeps,
  type BrokerMetrics,
  brokerConfigSchema,
  createBrokerMetrics,
  createLogger,
} from '@weir/broker';
import { temporaryDirectory } from './temporary-directory';
import { testLogLevel } from './test-log-level';

export interface RunningBroker {
  broker: Broker;
  /** The broker's metrics registry (no metrics server is started; read it directly). */
  metrics: BrokerMetrics;
  port: number;
  /** `127.0.0.1:<port>`, for clients' bootstrap lists. */
  bootstrap: string;
  /** `127.0.0.1:<port>` of the internal listener (SASL WEIR-TOKEN with {@link internalToken}). */
  internalBootstrap: string;
  /** The internal listener's token: {@link TEST_INTERNAL_TOKEN} unless the overrides set one. */
  internalToken: string;
  dataDir: string;
  /** Stops the broker gracefully (keeps the data directory, for restart tests). */
  stop(): Promise<void>;
  /** Stops the broker and removes its data directory. */
  dispose(): Promise<void>;
}

/** The internal listener's token in tests, unless a test configures its own. */
export const TEST_INTERNAL_TOKEN = 'weir-test-internal-token';

/**
 * Starts a real broker on 127.0.0.1 with ephemeral ports (client and internal listener) and
 * (unless given) a temporary data directory. Health and metrics servers are not started here; they
 * have their own tests. The internal listener can be turned off with
 * `listeners: { internal: { enabled: false } }`; its bootstrap and token then throw when read.
 */
export async function startBroker(
  overrides: BrokerConfigInput = {},
  dataDir?: string,
  /** Extra dependencies, such as a fake transaction scheduler or a logger a test reads. */
  extraDeps: Partial<Omit<BrokerDeps, 'metrics'>> = {},
): Promise<RunningBroker> {
  const directory = dataDir ? undefined : await temporaryDirectory('weir-broker-');
  const resolvedDataDir = dataDir ?? directory!.path;
  const config = brokerConfigSchema.parse({
    ...overrides,
    dataDir: resolvedDataDir,
    listeners: {
      client: { host: '127.0.0.1', port: 0, ...overrides.listeners?.client },
      internal: {
        host: '127.0.0.1',
        port: 0,
        token: TEST_INTERNAL_TOKEN,
        ...overrides.listeners?.internal,
      },
    },
    logging: { level: 'silent' },
  });
  const metrics = createBrokerMetrics();
  const broker = new Broker(config, {
    ...extraDeps,
    logger: extraDeps.logger ?? createLogger({ level: testLogLevel() }),
    metrics,
  });
  try {
    await broker.start();
  } catch (error) {
    // A start that failed half-way may have left logs with running timers or listeners open:
    // stop them before the directory goes, and report the start's error, not the stop's.
    await broker.stop().catch(() => undefined);
    await directory?.cleanup();
    throw error;
  }
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await broker.stop();
  };
  return {
    broker,
    metrics,
    port: broker.clientPort,
    bootstrap: `127.0.0.1:${broker.clientPort}`,
    get internalBootstrap() {
      return `127.0.0.1:${enabledInternal(broker.internalPort)}`;
    },
    get internalToken() {
      return enabledInternal(broker.internalToken);
    },
    dataDir: resolvedDataDir,
    stop,
    async dispose() {
      await stop();
      await directory?.cleanup();
    },
  };
}

function enabledInternal<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('the internal listener of this test broker is disabled');
  return value;
}
