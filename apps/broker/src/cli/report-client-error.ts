import type { Writable } from 'node:stream';
import { AdminItemsError, WeirError } from '@weir/protocol';
import { EXIT_USAGE, UsageError } from './usage-error';

/** Exit status when the broker refused or could not do what was asked. */
export const EXIT_BROKER_ERROR = 1;

/**
 * Prints why a client command failed and returns its exit status: 2 for a bad command line, 1 for
 * anything the broker (or the way to it) said. Kafka errors lead with their code's name
 * (UNKNOWN_TOPIC_OR_PARTITION, …) because that is what users search for.
 */
export function reportClientError(error: unknown, stderr: Writable): number {
  if (error instanceof UsageError) {
    stderr.write(`error: ${error.message}\n`);
    return EXIT_USAGE;
  }
  if (error instanceof AdminItemsError) {
    // Its own message lists items in one sentence; each item's error reads better on its own line.
    for (const failure of error.failures)
      stderr.write(`error: ${failure.error.name}: ${failure.error.message}\n`);
    return EXIT_BROKER_ERROR;
  }
  if (error instanceof WeirError) {
    stderr.write(`error: ${error.name}: ${error.message}\n`);
    return EXIT_BROKER_ERROR;
  }
  stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
  return EXIT_BROKER_ERROR;
}
