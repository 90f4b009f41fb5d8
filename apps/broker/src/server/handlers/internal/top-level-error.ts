import { ErrorCode, WeirError } from '@weir/protocol';

/** The top-level error fields of a Weir-only API's response. */
export interface TopLevelError {
  errorCode: number;
  errorMessage: string | null;
}

export const NO_ERROR: TopLevelError = { errorCode: ErrorCode.NONE, errorMessage: null };

/**
 * A command's {@link WeirError} as the response's top-level error. Anything else is a bug: it is
 * thrown on, so the dispatcher logs it and closes the connection, as for every handler.
 */
export function topLevelError(error: unknown): TopLevelError {
  if (error instanceof WeirError) return { errorCode: error.code, errorMessage: error.message };
  throw error;
}
