/**
 * The broker's error convention, in one place:
 *
 * - Services throw a `WeirError` for an expected failure (an unknown topic, a fenced producer); its
 *   Kafka error code is what the client is told. Anything else they throw is a bug or an
 *   unexpected failure.
 * - Kafka APIs that act on many items (partitions, topics, resources) answer per item: one failing
 *   item gets its error code, the others their own answers.
 * - The request context (built by the dispatcher with {@link wireErrorOf}) is the only place a
 *   thrown value, or a failed item result carrying one as its `cause`, becomes a wire error
 *   code. Every UNKNOWN_SERVER_ERROR it answers is reported with its cause, which the request
 *   observer logs with the API name and the stack, so no bug is answered silently.
 * - A handler that throws outright is a bug in the handler: only the handler knows the shape of
 *   its response, so the dispatcher logs the error and closes the connection.
 *
 * The message of an UNKNOWN_SERVER_ERROR is not sent: the cause's message is internal detail (as in
 * Kafka, which sends none for it either); the client shows the code's own message.
 */
import { ErrorCode, WeirError } from '@weir/protocol';

/** An error as the error fields of a response or of one item in it. */
export interface WireError {
  readonly errorCode: number;
  readonly errorMessage: string | null;
}

/** A failed item result: its code and message, and the thrown value behind it when one was. */
export interface FailedResult {
  readonly errorCode: number;
  readonly errorMessage: string | null;
  /** Set when the failure was not an expected `WeirError`; reported when the result is answered. */
  readonly cause?: unknown;
}

/** The conversions a request context offers its handler. */
export interface RequestErrors {
  /** The wire error for a value a service threw. */
  failure(error: unknown): WireError;
  /** The wire error of a failed item result. */
  errorOf(result: FailedResult): WireError;
}

/**
 * A thrown value as the wire error it is answered with. `reportServerError` is told about every
 * value answered as UNKNOWN_SERVER_ERROR: anything thrown that is not a `WeirError`, and a
 * `WeirError` whose code is UNKNOWN_SERVER_ERROR (its own cause, if any, travels with it).
 */
export function wireErrorOf(error: unknown, reportServerError: (error: unknown) => void): WireError {
  if (error instanceof WeirError) {
    if (error.code === ErrorCode.UNKNOWN_SERVER_ERROR) reportServerError(error);
    return { errorCode: error.code, errorMessage: error.message };
  }
  reportServerError(error);
  return { errorCode: ErrorCode.UNKNOWN_SERVER_ERROR, errorMessage: null };
}

/** A failed item result as its wire error; its `cause`, when it has one, decides (and is reported). */
export function wireErrorOfResult(
  result: FailedResult,
  reportServerError: (error: unknown) => void,
): WireError {
  return result.cause === undefined
    ? { errorCode: result.errorCode, errorMessage: result.errorMessage }
    : wireErrorOf(result.cause, reportServerError);
}
