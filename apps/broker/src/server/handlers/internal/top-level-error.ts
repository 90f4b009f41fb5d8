import { ErrorCode, errorCodeInfo, WeirError } from '@weir/protocol';
import type { AclRule } from '../../../security/acl/api-acl-rules';

/** The top-level error fields of a Weir-only API's response. */
export interface TopLevelError {
  errorCode: number;
  errorMessage: string | null;
}

export const NO_ERROR: TopLevelError = { errorCode: ErrorCode.NONE, errorMessage: null };

/** A request the principal may not make, as the top-level error: the rule's code and message. */
export function deniedError(rule: AclRule): TopLevelError {
  return { errorCode: rule.denied, errorMessage: errorCodeInfo(rule.denied)?.message ?? null };
}

/**
 * A command's {@link WeirError} as the response's top-level error. Anything else is a bug: it is
 * thrown on, so the dispatcher logs it and closes the connection, as for every handler.
 */
export function topLevelError(error: unknown): TopLevelError {
  if (error instanceof WeirError) return { errorCode: error.code, errorMessage: error.message };
  throw error;
}
