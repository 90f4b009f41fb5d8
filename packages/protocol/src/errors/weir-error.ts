import { ErrorCode, type ErrorCodeInfo, type ErrorCodeName, errorCodeInfo } from './error-codes';

/** Optional context for a {@link WeirError}. */
export interface WeirErrorOptions {
  /** What went wrong in this particular case, for people; callers branch on `code`, never on this. */
  readonly detail?: string;
  /** The lower-level error that led to this one. */
  readonly cause?: unknown;
}

/**
 * An error that carries a Kafka error code. The broker turns it into the code on the wire and the
 * SDK raises it for codes it receives, so both sides decide what to do from `code` and `retriable`
 * alone.
 *
 * A number that is not in the table becomes UNKNOWN_SERVER_ERROR (as Kafka's clients do), and the
 * number that actually arrived stays available as `originalCode` and in the message.
 */
export class WeirError extends Error {
  /** The error code's name, such as `'NOT_LEADER_OR_FOLLOWER'`; it is also what stack traces print. */
  override readonly name: ErrorCodeName;
  /** The Kafka error code. */
  readonly code: ErrorCode;
  /** The number this error was created from: equal to `code` unless that number is not in the table. */
  readonly originalCode: number;
  /** True when the same request may succeed if sent again (see {@link ErrorCodeInfo.retriable}). */
  readonly retriable: boolean;
  /** The case-specific detail given at construction, if any. */
  readonly detail: string | undefined;

  constructor(code: number, options: WeirErrorOptions = {}) {
    const known = errorCodeInfo(code);
    const info = known ?? (errorCodeInfo(ErrorCode.UNKNOWN_SERVER_ERROR) as ErrorCodeInfo);
    const summary = known ? info.message : `Unknown error code ${code}.`;
    const message = options.detail === undefined ? summary : `${summary} ${options.detail}`;
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = info.name;
    this.code = info.code;
    this.originalCode = code;
    this.retriable = info.retriable;
    this.detail = options.detail;
  }
}

/**
 * The {@link WeirError} for a code number, typically one read from a response. Callers check for
 * `ErrorCode.NONE` first; this function does not treat it specially.
 */
export function errorForCode(code: number, detail?: string): WeirError {
  return new WeirError(code, detail === undefined ? {} : { detail });
}

/**
 * Whether a request that failed with this code or error may succeed if sent again. Unknown numbers
 * are not retriable, like UNKNOWN_SERVER_ERROR.
 */
export function isRetriable(codeOrError: number | WeirError): boolean {
  if (codeOrError instanceof WeirError) return codeOrError.retriable;
  return errorCodeInfo(codeOrError)?.retriable ?? false;
}
