import { errorCodeInfo } from '../errors/error-codes';
import { errorForCode, WeirError } from '../errors/weir-error';

/** One item an admin operation could not do, and why. */
export interface AdminItemFailure {
  /** The topic, `topic-partition` or `type:name` of a config resource. */
  readonly item: string;
  readonly error: WeirError;
}

/**
 * An admin operation over several items (topics, partitions, config resources) where some failed:
 * Kafka answers these per item. It is a {@link WeirError} with the first failure's code, so the
 * common single-item case reads like any other error (`error.code === ErrorCode.TOPIC_ALREADY_EXISTS`);
 * `failures` holds every item's own error. Items not listed succeeded.
 */
export class AdminItemsError extends WeirError {
  /** The admin method, such as `'createTopics'`. */
  readonly operation: string;
  readonly failures: readonly AdminItemFailure[];

  constructor(operation: string, failures: readonly AdminItemFailure[], itemCount: number) {
    const first = failures[0];
    if (first === undefined) throw new Error('AdminItemsError needs at least one failure');
    const listed = failures.map((failure) => `${failure.item} (${failure.error.name})`).join(', ');
    super(first.error.originalCode, {
      detail: `${operation} failed for ${failures.length} of ${itemCount}: ${listed}.`,
      cause: first.error,
    });
    this.operation = operation;
    this.failures = failures;
  }
}

/**
 * The error for a code and the broker's message. Brokers (Weir among them) often start the message
 * with the code's own summary, which the error's message already begins with; it is not repeated.
 */
export function brokerError(code: number, message: string | null | undefined, fallback: string): WeirError {
  const summary = errorCodeInfo(code)?.message;
  let detail = message ?? fallback;
  if (summary !== undefined && detail.startsWith(summary))
    detail = detail.slice(summary.length).trim() || fallback;
  return errorForCode(code, detail);
}
