import { Produce, type RequestOf, readBatchHeader } from '@weir/protocol';
import { resultOf } from '../../errors/item-result';
import { API_ACL_RULES } from '../../security/acl/api-acl-rules';
import { defineHandler, type RequestContext } from '../handler';
import { legacyProduceRecords } from '../legacy/legacy-produce-records';

const RULES = API_ACL_RULES.Produce;

/**
 * Produce v0–8. Below v3 a partition carries a legacy message set, which is converted to one
 * RecordBatch v2 before anything else looks at it (docs/kafka-compat.md §6.6). Partitions are appended in request order (which keeps idempotent sequences in
 * order on a pipelined connection) and answered per partition. With acks=0 there is no response
 * at all, but the records are still written. A topic the principal may not write gets
 * TOPIC_AUTHORIZATION_FAILED on each partition and nothing appended. The request's bytes count
 * against the producer's producer_byte_rate quota, and the answer carries the throttle time.
 */
export const produceHandler = defineHandler({
  api: Produce,
  versions: { min: 0, max: 8 },
  async handle(request, context, services) {
    const legacy = context.header.apiVersion < 3;
    const refusedRequest = refusal(request, context);
    const append = (topic: string, partition: { index: number; records: Buffer | null }) => {
      const records = legacy
        ? legacyProduceRecords(partition.records)
        : { ok: true as const, value: partition.records };
      if (!records.ok) return Promise.resolve(records);
      return resultOf(() =>
        services.replicas.appendRecords({
          topic,
          partition: partition.index,
          records: records.value,
          acks: request.acks,
          timeoutMs: request.timeoutMs,
          transactionalId: request.transactionalId,
        }),
      );
    };
    const pending = request.topicData.map((topic) => {
      const refused =
        refusedRequest ?? (context.access.allows(RULES.topic, topic.name) ? undefined : RULES.topic.denied);
      return {
        name: topic.name,
        partitions: topic.partitionData.map((partition) => ({
          index: partition.index,
          // Started synchronously in request order: the replica layer queues each append before
          // returning, so a later request's append to the partition cannot pass it.
          result:
            refused !== undefined ? Promise.resolve(refusedResult(refused)) : append(topic.name, partition),
        })),
      };
    });
    const responses = [];
    for (const topic of pending) {
      const partitionResponses = [];
      for (const partition of topic.partitions) {
        const result = await partition.result;
        partitionResponses.push(
          result.ok
            ? {
                index: partition.index,
                errorCode: 0,
                baseOffset: BigInt(result.value.baseOffset),
                logAppendTimeMs: BigInt(result.value.logAppendTimeMs),
                logStartOffset: BigInt(result.value.logStartOffset),
                recordErrors: [],
                errorMessage: null,
              }
            : {
                index: partition.index,
                ...context.errorOf(result),
                baseOffset: -1n,
                logAppendTimeMs: -1n,
                logStartOffset: -1n,
                recordErrors: [],
              },
        );
      }
      responses.push({ name: topic.name, partitionResponses });
    }
    // Charged once the appends are done, as Kafka does; with acks=0 there is no answer to carry
    // the throttle time, so only the usage counts (against the client's later requests).
    const throttleTimeMs = context.quota.produced(context.requestBytes);
    if (request.acks === 0) return undefined;
    return { responses, throttleTimeMs };
  },
});

function refusedResult(errorCode: number): { ok: false; errorCode: number; errorMessage: null } {
  return { ok: false, errorCode, errorMessage: null };
}

/**
 * The error every partition gets when the producer itself is not allowed: a transactional id the
 * principal may not write (Kafka refuses the whole request), or idempotent batches without
 * IDEMPOTENT_WRITE (or WRITE somewhere, which implies it).
 */
function refusal(request: RequestOf<typeof Produce>, context: RequestContext): number | undefined {
  const { access } = context;
  if (request.transactionalId !== null) {
    return access.allows(RULES.transactionalId, request.transactionalId)
      ? undefined
      : RULES.transactionalId.denied;
  }
  if (!request.topicData.some((topic) => topic.partitionData.some((p) => isIdempotent(p.records)))) {
    return undefined;
  }
  return access.allows(RULES.idempotent) ? undefined : RULES.idempotent.denied;
}

/** Whether a partition's records come from an idempotent producer (a producer id in the batch). */
function isIdempotent(records: Uint8Array | null): boolean {
  if (records === null) return false;
  const header = readBatchHeader(records);
  return header.ok && header.value.producerId >= 0n;
}
