import { Broker } from '../src/broker';
import { type BrokerConfigInput, brokerConfigSchema } from '../src/config/broker-config';
import { createBrokerMetrics } from '../src/http/metrics';
import { createLogger } from '../src/logger';
import { temporaryDirectory } from './log-fixtures';

export interface RunningBroker {
  broker: Broker;
  port: number;
  /** `127.0.0.1:<port>`, for clients' bootstrap lists. */
  bootstrap: string;
  dataDir: string;
  /** Stops the broker gracefully (keeps the data directory, for restart tests). */
  stop(): Promise<void>;
  /** Stops the broker and removes its data directory. */
  dispose(): Promise<void>;
}

/**
 * Starts a real broker on 127.0.0.1 with an ephemeral port and (unless given) a temporary data
 * directory. Health and metrics servers are not started here; they have their own tests.
 */
export async function startBroker(
  overrides: BrokerConfigInput = {},
  dataDir?: string,
): Promise<RunningBroker> {
  const directory = dataDir ? undefined : await temporaryDirectory('weir-broker-');
  const resolvedDataDir = dataDir ?? directory!.path;
  const config = brokerConfigSchema.parse({
    ...overrides,
    dataDir: resolvedDataDir,
    listeners: { client: { host: '127.0.0.1', port: 0, ...overrides.listeners?.client } },
    logging: { level: 'silent' },
  });
  const broker = new Broker(config, {
    logger: createLogger({ level: (process.env.WEIR_TEST_LOG_LEVEL as 'info' | undefined) ?? 'silent' }),
    metrics: createBrokerMetrics(),
  });
  await broker.start();
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await broker.stop();
  };
  return {
    broker,
    port: broker.clientPort,
    bootstrap: `127.0.0.1:${broker.clientPort}`,
    dataDir: resolvedDataDir,
    stop,
    async dispose() {
      await stop();
      await directory?.cleanup();
    },
  };
}
