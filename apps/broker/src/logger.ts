import type { Writable } from 'node:stream';
import pino from 'pino';
import pretty from 'pino-pretty';

export type Logger = pino.Logger;
export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal' | 'silent';

export interface LoggerOptions {
  level: LogLevel;
  /** Human-readable lines; when undefined, chosen when the destination is a terminal. */
  pretty?: boolean | undefined;
  /** Where lines go; standard output by default. Tests pass a stream they read. */
  destination?: Writable & { isTTY?: boolean };
  /** Fields on every line, e.g. `{ nodeId }`. */
  bindings?: Record<string, unknown>;
}

/**
 * Creates the broker's structured logger. Lines are JSON with a textual level and an ISO time, so
 * log shippers and people can read them alike. Pretty output is formatted in this process (not in
 * pino's worker transport) so that a line logged just before `process.exit` is never lost.
 */
export function createLogger(options: LoggerOptions): Logger {
  const destination = options.destination ?? process.stdout;
  const usePretty = options.pretty ?? destination.isTTY === true;
  const stream = usePretty
    ? pretty({
        destination,
        sync: true,
        colorize: destination.isTTY === true,
        translateTime: 'SYS:HH:MM:ss.l',
        ignore: 'pid,hostname',
      })
    : destination;
  return pino(
    {
      level: options.level,
      base: options.bindings ?? null,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    stream,
  );
}

/** A child logger for one partition; every line it writes names the partition. */
export function partitionLogger(logger: Logger, topic: string, partition: number): Logger {
  return logger.child({ topic, partition });
}

/** A child logger for one consumer group. */
export function groupLogger(logger: Logger, groupId: string): Logger {
  return logger.child({ groupId });
}

/** A child logger for one client connection. */
export function connectionLogger(
  logger: Logger,
  connectionId: number | string,
  remoteAddress?: string,
): Logger {
  return logger.child(remoteAddress === undefined ? { connectionId } : { connectionId, remoteAddress });
}
