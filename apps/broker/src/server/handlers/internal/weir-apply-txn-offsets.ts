import { ErrorCode, WeirApplyTxnOffsets } from '@weir/protocol';
import { API_ACL_RULES } from '../../../security/acl/api-acl-rules';
import { defineHandler } from '../../handler';

const RULES = API_ACL_RULES.WeirApplyTxnOffsets;

const MAX_OFFSET = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * WeirApplyTxnOffsets v0 (internal listener; another broker's transaction coordinator): stores a
 * committed transaction's offsets as the group's committed offsets through this broker's group
 * coordinator, which answers NOT_COORDINATOR when it does not coordinate the group. Needs
 * CLUSTER_ACTION, which only the broker principal has.
 */
export const weirApplyTxnOffsetsHandler = defineHandler({
  api: WeirApplyTxnOffsets,
  versions: { min: 0, max: 0 },
  async handle(request, context, services) {
    if (!context.access.allows(RULES.cluster)) return { errorCode: RULES.cluster.denied };
    const outOfRange = request.offsets.some(
      (row) => row.offset < 0n || row.offset > MAX_OFFSET || row.partition < 0,
    );
    if (outOfRange || request.producerId < 0n || request.producerEpoch < 0) {
      return { errorCode: ErrorCode.INVALID_REQUEST };
    }
    const errorCode = await services.groups.applyTransactionalOffsets(
      request.groupId,
      { producerId: request.producerId, producerEpoch: request.producerEpoch },
      request.offsets.map((row) => ({
        topic: row.topic,
        partition: row.partition,
        offset: Number(row.offset),
        leaderEpoch: row.leaderEpoch,
        metadata: row.metadata,
      })),
    );
    return { errorCode };
  },
});
