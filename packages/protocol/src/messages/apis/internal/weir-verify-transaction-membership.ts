import { defineApi } from '../../../schema/api';
import { field } from '../../../schema/struct';
import { int16, int32, int64, string } from '../../../schema/types';

/**
 * WeirVerifyTransactionMembership (key 32011, Weir only, broker to broker), version 0: a partition
 * leader about to append a transactional batch asks the coordinator of the producer's
 * transactional id whether the partition is in the producer's ongoing transaction (Kafka's
 * AddPartitionsToTxn v4 "verify only", KIP-890, which is flexible-only at that version). Answers:
 * NONE (a member: append), INVALID_TXN_STATE (not a member), INVALID_PRODUCER_EPOCH (a newer epoch
 * owns the id), NOT_COORDINATOR or COORDINATOR_LOAD_IN_PROGRESS (the asked broker cannot answer
 * for the id now).
 */
export const WeirVerifyTransactionMembership = defineApi({
  apiKey: 32011,
  name: 'WeirVerifyTransactionMembership',
  versions: '0',
  flexibleVersions: '0+',
  request: {
    transactionalId: field(string, { nullable: '0+', default: null }),
    producerId: field(int64),
    producerEpoch: field(int16),
    topic: field(string),
    partition: field(int32),
  },
  response: {
    errorCode: field(int16),
  },
});
