import type { BrokerConfig } from '../config/broker-config';
import type { ConfigFlags } from '../config/flag-overrides';
import { startHealthServer } from '../http/health-server';
import type { RunningServer } from '../http/listen';
import { createBrokerMetrics } from '../http/metrics';
import { startMetricsServer } from '../http/metrics-server';
import { createLogger, type Logger } from '../logger';
import type { BrokerHandle } from './broker-factory';
import type { CliDeps } from './cli-deps';
import { EXIT_BAD_CONFIG, loadConfigOrReport } from './load-config-or-report';
import { withinTimeout } from './within-timeout';

/** Exit status when the broker could not start, failed to stop, or outlived the shutdown bound. */
export const EXIT_FAILURE = 1;

/**
 * `weir broker start`: runs the broker until SIGTERM or SIGINT, then stops it gracefully within
 * `shutdownTimeoutMs` (plus `cluster.controlledShutdownTimeoutMs` in cluster mode). Returns the exit status: 0 after a clean stop, 1 when starting failed or the
 * stop failed or took too long, 2 when the configuration is invalid (nothing is started then).
 */
export async function brokerStartCommand(flags: ConfigFlags, deps: CliDeps): Promise<number> {
  const config = await loadConfigOrReport(flags, deps);
  if (!config) {
    deps.stderr.write('weir: the broker was not started because of the configuration errors above\n');
    return EXIT_BAD_CONFIG;
  }
  const logger = createLogger({
    level: config.logging.level,
    pretty: config.logging.pretty,
    destination: deps.stdout,
    bindings: { nodeId: config.nodeId },
  });
  // Listening for the signal from the start means a SIGTERM during recovery is not lost.
  const shutdownRequested = deps.shutdownSignal();
  const servers: RunningServer[] = [];
  try {
    const metrics = createBrokerMetrics();
    const broker = await deps.createBroker(config, { logger, metrics });
    metrics.registerPartitionCollector(() => broker.partitionStats());
    metrics.registerGroupCollector(() => broker.groupStats());
    // The probes come up before the broker starts, so /live answers during a long recovery and
    // /ready reports what is still missing.
    servers.push(await startHealthServer({ ...config.health, readiness: () => broker.readiness() }));
    servers.push(await startMetricsServer({ ...config.metrics, registry: metrics.registry }));
    logger.info(
      { healthPort: servers[0]?.port, metricsPort: servers[1]?.port },
      'health and metrics serving',
    );
    return await runUntilSignal(broker, config, logger, shutdownRequested, servers);
  } catch (error) {
    logger.fatal({ err: error }, 'the broker could not start');
    await closeAll(servers, logger);
    return EXIT_FAILURE;
  }
}

async function runUntilSignal(
  broker: BrokerHandle,
  config: BrokerConfig,
  logger: Logger,
  shutdownRequested: Promise<string>,
  servers: RunningServer[],
): Promise<number> {
  const started = broker.start().then(
    () => ({ ok: true as const }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  const first = await Promise.race([started, shutdownRequested.then(() => undefined)]);
  if (first && !first.ok) {
    logger.fatal({ err: first.error }, 'the broker failed to start');
    await withinTimeout(
      stopQuietly(broker, logger).then(() => closeAll(servers, logger)),
      config.shutdownTimeoutMs,
    );
    return EXIT_FAILURE;
  }
  if (first?.ok) logger.info('startup complete');
  const signal = await shutdownRequested;
  // A cluster broker first hands its partitions over, within its own bound (docs/architecture.md §6.3).
  const stopBoundMs =
    config.shutdownTimeoutMs +
    (config.cluster.etcdEndpoints.length > 0 ? config.cluster.controlledShutdownTimeoutMs : 0);
  logger.info({ signal, shutdownTimeoutMs: stopBoundMs }, 'shutting down');
  // The bound starts at the signal and also covers a start still in progress when it came.
  const shutdown = (async (): Promise<boolean> => {
    const outcome = await started;
    const stopped = outcome.ok ? await stopQuietly(broker, logger) : false;
    await closeAll(servers, logger);
    return stopped;
  })();
  let stopped = false;
  const result = await withinTimeout(
    shutdown.then((ok) => {
      stopped = ok;
    }),
    stopBoundMs,
  );
  if (result === 'timed out') {
    logger.error({ shutdownTimeoutMs: stopBoundMs }, 'shutdown took too long; exiting anyway');
    return EXIT_FAILURE;
  }
  if (!stopped) return EXIT_FAILURE;
  logger.info('shutdown complete');
  return 0;
}

async function stopQuietly(broker: BrokerHandle, logger: Logger): Promise<boolean> {
  try {
    await broker.stop();
    return true;
  } catch (error) {
    logger.error({ err: error }, 'the broker failed to stop cleanly');
    return false;
  }
}

/** The probes close last, so they can report the shutdown while it happens. */
async function closeAll(servers: readonly RunningServer[], logger: Logger): Promise<void> {
  await Promise.all(
    servers.map((server) =>
      server.close().catch((error: unknown) => logger.warn({ err: error }, 'closing an HTTP server failed')),
    ),
  );
}
