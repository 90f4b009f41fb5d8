import { TxnOffsetCommit } from '@weir/protocol';
import { API_ACL_RULES } from '../../security/acl/api-acl-rules';
import { defineHandler } from '../handler';

const RULES = API_ACL_RULES.TxnOffsetCommit;

/**
 * TxnOffsetCommit v0–2: kafkajs sends at most v1, librdkafka v2 (which adds the leader epoch).
 * The offsets are staged in the transaction and become the group's committed offsets only when
 * it commits; an abort drops them. Needs WRITE on the transactional id and READ on the group
 * (else every partition gets that denial) and READ on each topic (else its partitions get
 * TOPIC_AUTHORIZATION_FAILED and stage nothing). The offsets go to the transactional id's
 * coordinator, forwarded there when that is another broker (interbroker/routed-offset-staging.ts).
 */
export const txnOffsetCommitHandler = defineHandler({
  api: TxnOffsetCommit,
  versions: { min: 0, max: 2 },
  async handle(request, context, services) {
    const { access } = context;
    const refusedRequest = !access.allows(RULES.transactionalId, request.transactionalId)
      ? RULES.transactionalId.denied
      : !access.allows(RULES.group, request.groupId)
        ? RULES.group.denied
        : undefined;
    const { allowed, denied } =
      refusedRequest === undefined
        ? access.split(RULES.topic, request.topics, (topic) => topic.name)
        : { allowed: [], denied: request.topics };
    const staged =
      allowed.length === 0
        ? []
        : await services.transactionOffsets.stageOffsets(
            {
              transactionalId: request.transactionalId,
              producerId: request.producerId,
              producerEpoch: request.producerEpoch,
            },
            request.groupId,
            allowed.map((topic) => ({
              name: topic.name,
              partitions: topic.partitions.map((partition) => ({
                partitionIndex: partition.partitionIndex,
                offset: Number(partition.committedOffset),
                leaderEpoch: partition.committedLeaderEpoch,
                metadata: partition.committedMetadata,
              })),
            })),
            context.listenerName,
          );
    const refusedCode = refusedRequest ?? RULES.topic.denied;
    const refused = denied.map((topic) => ({
      name: topic.name,
      partitions: topic.partitions.map((partition) => ({
        partitionIndex: partition.partitionIndex,
        errorCode: refusedCode,
      })),
    }));
    return { throttleTimeMs: 0, topics: [...staged, ...refused] };
  },
});
