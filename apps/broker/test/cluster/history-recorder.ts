// Records what kafkajs clients did as a history for the checker (history-checker.ts): each send
// with how it ended, each batch a consumer received, each seek. Operations are kept in the order
// they complete, so one process should be one client whose completions follow its own order (a
// producer awaiting each send, or one whose sends to a partition are answered in order).

import { KafkaJSNumberOfRetriesExceeded, KafkaJSProtocolError, type Producer } from 'kafkajs';
import {
  type CheckOptions,
  checkHistory,
  type HistoryOperation,
  type HistoryReport,
  type SendOperation,
  type SendStatus,
} from './history-checker';

/**
 * Broker answers about the request itself: every attempt of the same send gets the same one, so
 * no earlier attempt can have been stored and the send definitely failed. Any other error (a
 * timeout, a lost connection, NOT_LEADER_OR_FOLLOWER after retries) may follow an attempt that was
 * written, so its send is `unknown`.
 */
const DEFINITE_FAILURES = new Set([
  'MESSAGE_TOO_LARGE',
  'RECORD_LIST_TOO_LARGE',
  'CORRUPT_MESSAGE',
  'INVALID_RECORD',
  'INVALID_TOPIC_EXCEPTION',
  'TOPIC_AUTHORIZATION_FAILED',
  'INVALID_REQUIRED_ACKS',
]);

/** How a failed kafkajs send ended, as far as the client can know. */
export function sendStatusOf(error: unknown): SendStatus {
  if (error instanceof KafkaJSNumberOfRetriesExceeded) return 'unknown';
  const cause = error instanceof Error && error.cause instanceof KafkaJSProtocolError ? error.cause : error;
  return cause instanceof KafkaJSProtocolError && DEFINITE_FAILURES.has(cause.type) ? 'fail' : 'unknown';
}

/** A record as kafkajs hands it to `eachBatch` / `eachMessage`. */
export interface ReceivedMessage {
  offset: string;
  value: Buffer | null;
}

export class HistoryRecorder {
  readonly #operations: HistoryOperation[] = [];

  /** The operations recorded so far, in completion order. */
  get operations(): readonly HistoryOperation[] {
    return this.#operations;
  }

  /**
   * Sends `value` to `partition` of `topic` with `producer` and records how it ended; resolves
   * with the operation (never rejects: a failure is part of the history).
   */
  async send(
    process: string,
    producer: Producer,
    topic: string,
    partition: number,
    value: string,
    acks = -1,
  ): Promise<SendOperation> {
    let operation: SendOperation;
    try {
      const [metadata] = await producer.send({ topic, acks, messages: [{ value, partition }] });
      const offset = metadata?.baseOffset === undefined ? undefined : Number(metadata.baseOffset);
      operation = {
        type: 'send',
        process,
        status: 'ok',
        partition,
        value,
        ...(offset === undefined ? {} : { offset }),
      };
    } catch (error) {
      operation = { type: 'send', process, status: sendStatusOf(error), partition, value };
    }
    this.#operations.push(operation);
    return operation;
  }

  /** Records a send another client made (kcat), with how it ended. */
  recordSend(operation: SendOperation): void {
    this.#operations.push(operation);
  }

  /** Records one batch a consumer received from `partition` (records without a value are skipped). */
  polled(process: string, partition: number, messages: readonly ReceivedMessage[]): void {
    const records = messages
      .filter((message) => message.value !== null)
      .map((message) => ({ offset: Number(message.offset), value: message.value!.toString('utf8') }));
    this.#operations.push({ type: 'poll', process, partition, records });
  }

  /** Records that a consumer's position moved on purpose (a seek, an assignment, a reset). */
  seek(process: string, partition: number, offset: number): void {
    this.#operations.push({ type: 'seek', process, partition, offset });
  }

  /** The values read so far, to wait for a final read to finish. */
  valuesRead(): Set<string> {
    const read = new Set<string>();
    for (const operation of this.#operations)
      if (operation.type === 'poll') for (const record of operation.records) read.add(record.value);
    return read;
  }

  check(options?: CheckOptions): HistoryReport {
    return checkHistory(this.#operations, options);
  }
}
