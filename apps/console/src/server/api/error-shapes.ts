import { type ErrorCodeName, WeirError } from '@weir/protocol';
import { ConsoleConfigError } from '../../env';

/*
 * Recognising errors by their shape as well as by their class. Next.js bundles server code per
 * route (pages apart from route handlers), while the broker clients are shared through globalThis
 * (admin-client.ts): a page's server-side prefetch may create them, and then every error the SDK
 * throws is an instance of that bundle's copy of @weir/protocol (and env.ts), which `instanceof`
 * in another bundle does not match. Dev-mode module reloads do the same. The fields checked here
 * are the public contract of those classes.
 */

/** A Kafka-coded error (a WeirError from any copy of the protocol package). */
export interface KafkaCodedError extends Error {
  readonly name: ErrorCodeName;
  readonly originalCode: number;
}

export function asKafkaError(error: unknown): KafkaCodedError | null {
  if (error instanceof WeirError) return error;
  if (!(error instanceof Error)) return null;
  const fields = error as Error & { code?: unknown; originalCode?: unknown; retriable?: unknown };
  const coded =
    typeof fields.code === 'number' &&
    typeof fields.originalCode === 'number' &&
    typeof fields.retriable === 'boolean';
  return coded ? (error as KafkaCodedError) : null;
}

/** A missing or invalid console setting (a ConsoleConfigError from any copy of env.ts). */
export function isConsoleConfigError(error: unknown): error is Error {
  return (
    error instanceof ConsoleConfigError || (error instanceof Error && error.name === 'ConsoleConfigError')
  );
}
