import { ErrorCode, WeirError } from '@weir/protocol';

/**
 * The outcome of one item of a batched command (one topic of CreateTopics, one partition of
 * Produce): Kafka answers per item, so one bad item must not fail the others. A handler answers a
 * failed result through its request context's `errorOf` (server/request-errors.ts), which reports
 * the `cause` of an UNKNOWN_SERVER_ERROR.
 */
export type ItemResult<T> =
  | { ok: true; value: T }
  | { ok: false; errorCode: number; errorMessage: string; cause?: unknown };

/**
 * Runs one item and captures its failure. A {@link WeirError} keeps its code; anything else is a
 * bug or an unexpected failure and becomes UNKNOWN_SERVER_ERROR with the error kept as `cause`,
 * so the request context can report it.
 */
export async function resultOf<T>(run: () => Promise<T>): Promise<ItemResult<T>> {
  try {
    return { ok: true, value: await run() };
  } catch (error) {
    return failureOf(error);
  }
}

/**
 * A thrown value as a failed result. The value is kept as `cause` whenever the code is
 * UNKNOWN_SERVER_ERROR (a `WeirError` of that code too), since that failure must be logged.
 */
export function failureOf(error: unknown): {
  ok: false;
  errorCode: number;
  errorMessage: string;
  cause?: unknown;
} {
  if (error instanceof WeirError) {
    return error.code === ErrorCode.UNKNOWN_SERVER_ERROR
      ? { ok: false, errorCode: error.code, errorMessage: error.message, cause: error }
      : { ok: false, errorCode: error.code, errorMessage: error.message };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { ok: false, errorCode: ErrorCode.UNKNOWN_SERVER_ERROR, errorMessage: message, cause: error };
}
