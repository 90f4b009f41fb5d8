import { ErrorCode, WeirVerifyTransactionMembership } from '@weir/protocol';
import { API_ACL_RULES } from '../../../security/acl/api-acl-rules';
import type { TransactionMembership } from '../../../txn/transaction-contracts';
import { defineHandler } from '../../handler';

const RULES = API_ACL_RULES.WeirVerifyTransactionMembership;

/** The coordinator's verdicts as the codes the asking partition leader maps back. */
const CODE_OF: Readonly<Record<TransactionMembership, number>> = {
  member: ErrorCode.NONE,
  'not-member': ErrorCode.INVALID_TXN_STATE,
  fenced: ErrorCode.INVALID_PRODUCER_EPOCH,
  unavailable: ErrorCode.NOT_COORDINATOR,
};

/**
 * WeirVerifyTransactionMembership v0 (internal listener; another broker's produce path): asks this
 * broker's transaction coordinator, never another broker's, whether the partition is in the
 * producer's ongoing transaction. A transactional id this broker does not coordinate (or whose
 * shard is loading) is NOT_COORDINATOR, so the asker answers its producer with the retriable
 * NOT_ENOUGH_REPLICAS. Needs CLUSTER_ACTION, which only the broker principal has.
 */
export const weirVerifyTransactionMembershipHandler = defineHandler({
  api: WeirVerifyTransactionMembership,
  versions: { min: 0, max: 0 },
  async handle(request, context, services) {
    if (!context.access.allows(RULES.cluster)) return { errorCode: RULES.cluster.denied };
    if (request.producerId < 0n || request.producerEpoch < 0 || request.partition < 0) {
      return { errorCode: ErrorCode.INVALID_REQUEST };
    }
    const verdict = await services.transactions.membership({
      transactionalId: request.transactionalId,
      producerId: request.producerId,
      producerEpoch: request.producerEpoch,
      topic: request.topic,
      partition: request.partition,
    });
    return { errorCode: CODE_OF[verdict] };
  },
});
