import type { createLogger } from '@weir/broker';

type LogLevel = Parameters<typeof createLogger>[0]['level'];

/**
 * The broker's log level in tests: silent, unless WEIR_TEST_LOG_LEVEL names another level for a
 * run that needs the broker's logs to debug a failure (the logger rejects a name it does not
 * know). This is the only place the package reads the environment.
 */
export function testLogLevel(): LogLevel {
  return (process.env.WEIR_TEST_LOG_LEVEL as LogLevel | undefined) ?? 'silent';
}
