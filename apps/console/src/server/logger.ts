import 'server-only';
import pino, { type Logger } from 'pino';
import { env } from '../env';

export type { Logger };

let processLogger: Logger | undefined;

/** The gateway's structured logger (JSON lines on stdout). */
export function gatewayLogger(): Logger {
  processLogger ??= pino({ name: 'weir-console', level: env().logLevel });
  return processLogger;
}
