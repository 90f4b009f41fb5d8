import { Produce, type RequestOf, readBatchHeader } from '@weir/protocol';
import { resultOf } from '../../errors/item-result';
import { API_ACL_RULES } from '../../security/acl/api-acl-rules';
import { defineHandler, type RequestContext } from '../handler';

const RULES = API_ACL_RULES.Produce;

/**
 * Produce v3–7. Partitions are appended in request order (which keeps idempotent sequences in
 * order on a pipelined connection) and answered per partition. With acks=0 there is no response
 * at all, but the records are still written. A topic the principal may not write gets
 * TOPIC_AUTHORIZATION_FAILED on each partition and nothing appended. The request's bytes count
 * against the producer's producer_byte_rate quota, and the answer carries the throttle time.
 */
export const produceHandler = defineHandler({
  api: Produce,
  versions: { min: 3, max: 7 },
  async handle(request, context, services) {
    const refusedRequest = refusal(request, context);
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
            refused !== undefined
              ? Promise.resolve({ ok: false as const, errorCode: refused, errorMessage: null })
              : resultOf(() =>
                  services.replicas.appendRecords({
                    topic: topic.name,
                    partition: partition.index,
                    records: partition.records,
                    acks: request.acks,
                    timeoutMs: request.timeoutMs,
                    transactionalId: request.transactionalId,
                  }),
                ),
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
              }
            : {
                index: partition.index,
                errorCode: context.errorOf(result).errorCode,
                baseOffset: -1n,
                logAppendTimeMs: -1n,
                logStartOffset: -1n,
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
