import { ErrorCode } from '../errors/error-codes';
import { errorForCode, WeirError } from '../errors/weir-error';
import { Produce } from '../messages/apis/produce';
import type { CompressionType } from '../records/batch-attributes';
import type { RequestOf, ResponseOf } from '../schema/api';
import type { Connection } from './connection';
import type { ProducerBatch } from './producer-batch';
import type { ProducerTestHooks } from './producer-options';

/** What a Produce request carries besides its batches. */
export interface ProduceRequestSettings {
  readonly transactionalId: string | null;
  readonly acks: -1 | 0 | 1;
  readonly timeoutMs: number;
  readonly compression: CompressionType;
}

/** What became of one batch of a Produce request that was answered. */
export type BatchAnswer =
  | { readonly stored: true; readonly baseOffset: bigint; readonly logAppendTimeMs: bigint }
  | {
      readonly stored: false;
      readonly error: unknown;
      /** The broker may have stored the batch anyway (no answer for it came back). */
      readonly outcomeUnknown: boolean;
    };

/**
 * The Produce request for batches bound for one connection, grouped by topic in the batches'
 * order. Throws when the broker cannot take the compression: zstd needs Produce v7.
 */
export function produceRequest(
  connection: Connection,
  batches: readonly ProducerBatch[],
  settings: ProduceRequestSettings,
): RequestOf<typeof Produce> {
  const version = connection.versionFor(Produce);
  if (settings.compression === 'zstd' && version < 7) {
    throw new WeirError(ErrorCode.UNSUPPORTED_COMPRESSION_TYPE, {
      detail: `zstd needs Produce v7; ${connection.address} serves up to v${version}.`,
    });
  }
  const body: RequestOf<typeof Produce> = {
    transactionalId: settings.transactionalId,
    acks: settings.acks,
    timeoutMs: settings.timeoutMs,
    topicData: [],
  };
  const byTopic = new Map<string, RequestOf<typeof Produce>['topicData'][number]>();
  for (const batch of batches) {
    let topic = byTopic.get(batch.topic);
    if (topic === undefined) {
      topic = { name: batch.topic, partitionData: [] };
      byTopic.set(batch.topic, topic);
      body.topicData.push(topic);
    }
    topic.partitionData.push({ index: batch.partition, records: batch.bytes });
  }
  return body;
}

/** The encoded size of batches, to keep a request within maxRequestBytes. */
export function requestBytes(batches: readonly ProducerBatch[]): number {
  let total = 0;
  for (const batch of batches) total += batch.bytes.length;
  return total;
}

/**
 * Reads a batch's partition answer out of a Produce response. A test hook may drop the answer
 * first, which counts like a lost answer; an answer that does not mention the partition counts the
 * same, since the broker may still have stored the batch.
 */
export function batchAnswer(
  batch: ProducerBatch,
  response: ResponseOf<typeof Produce>,
  hooks: ProducerTestHooks | undefined,
): BatchAnswer {
  const answer = response.responses
    .find((topic) => topic.name === batch.topic)
    ?.partitionResponses.find((partition) => partition.index === batch.partition);
  const verdict =
    hooks?.interceptResponse?.({
      topic: batch.topic,
      partition: batch.partition,
      baseSequence: batch.baseSequence,
      attempt: batch.attempts,
    }) ?? 'deliver';
  if (verdict === 'lose') {
    const lost = new WeirError(ErrorCode.NETWORK_EXCEPTION, {
      detail: 'a test hook dropped the answer.',
    });
    return { stored: false, error: lost, outcomeUnknown: true };
  }
  if (answer === undefined) {
    const missing = new WeirError(ErrorCode.UNKNOWN_SERVER_ERROR, {
      detail: `the Produce answer does not mention ${batch.topic}-${batch.partition}.`,
    });
    return { stored: false, error: missing, outcomeUnknown: true };
  }
  if (answer.errorCode === ErrorCode.NONE) {
    return { stored: true, baseOffset: answer.baseOffset, logAppendTimeMs: answer.logAppendTimeMs };
  }
  const error = errorForCode(answer.errorCode, `Producing to ${batch.topic}-${batch.partition}.`);
  return { stored: false, error, outcomeUnknown: false };
}
