import { defineApi } from '../../../schema/api';
import { field, struct } from '../../../schema/struct';
import { array, int16, int32, int64, string } from '../../../schema/types';

/**
 * WeirApplyTxnOffsets (key 32012, Weir only, broker to broker), version 0: the transaction
 * coordinator of a committed transaction hands the offsets it staged (TxnOffsetCommit) to the
 * group's coordinator, which stores them as the group's committed offsets, durably, before
 * answering. Transactional offsets bypass the group generation, as in Kafka. Errors: those of the
 * group coordinator (NOT_COORDINATOR, COORDINATOR_LOAD_IN_PROGRESS, COORDINATOR_NOT_AVAILABLE, …),
 * INVALID_REQUEST for an offset out of range.
 */
export const WeirApplyTxnOffsets = defineApi({
  apiKey: 32012,
  name: 'WeirApplyTxnOffsets',
  versions: '0',
  flexibleVersions: '0+',
  request: {
    groupId: field(string),
    producerId: field(int64),
    producerEpoch: field(int16),
    offsets: field(
      array(
        struct({
          topic: field(string),
          partition: field(int32),
          offset: field(int64),
          leaderEpoch: field(int32),
          metadata: field(string, { nullable: '0+', default: null }),
        }),
      ),
    ),
  },
  response: {
    errorCode: field(int16),
  },
});
