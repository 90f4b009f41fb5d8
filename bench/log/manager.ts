import { DEFAULT_LOG_CONFIG, type LogConfig } from '@weir/broker/log/log-config';
import { LogManager, type LogManagerOptions } from '@weir/broker/log/log-manager';

export const FLUSH_INTERVAL_MS = 100;
export const MAX_OPEN_FILES = 1024;
export const BENCH_TOPIC = 'bench';

/**
 * The broker's defaults (1 GiB segments, flush.ms 100), spelled out where the benchmark depends on
 * them so a change of default does not silently change what the table measures.
 */
export function benchConfig(overrides: Partial<LogConfig> = {}): LogConfig {
  return { ...DEFAULT_LOG_CONFIG, flushMs: FLUSH_INTERVAL_MS, ...overrides };
}

/** A log manager over `dataDirectory` as the broker would configure it. */
export function createBenchManager(
  dataDirectory: string,
  options: Partial<LogManagerOptions> = {},
): LogManager {
  return new LogManager({
    dataDirectory,
    defaultConfig: benchConfig(),
    maxOpenFiles: MAX_OPEN_FILES,
    ...options,
  });
}
