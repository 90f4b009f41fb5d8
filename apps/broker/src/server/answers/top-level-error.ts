import { ErrorCode, errorCodeInfo } from '@weir/protocol';
import type { AclRule } from '../../security/acl/api-acl-rules';
import type { WireError } from '../request-errors';

/**
 * The top-level error fields of a Weir-only API's response when there is no error. A failure gets
 * its fields from the request context (`context.failure(error)`), which reports an
 * UNKNOWN_SERVER_ERROR's cause.
 */
export const NO_ERROR: WireError = { errorCode: ErrorCode.NONE, errorMessage: null };

/** A request the principal may not make, as the top-level error: the rule's code and message. */
export function deniedError(rule: AclRule): WireError {
  return { errorCode: rule.denied, errorMessage: errorCodeInfo(rule.denied)?.message ?? null };
}
