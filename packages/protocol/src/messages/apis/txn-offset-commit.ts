import { defineApi } from '../../schema/api';
import { field, struct } from '../../schema/struct';
import { array, int16, int32, int64, string } from '../../schema/types';

/**
 * TxnOffsetCommit (key 28), versions 0–2 (docs/kafka-compat.md §3): kafkajs sends at most v1, librdkafka
 * picks v2 (which adds the committed leader epoch), and v3 is the first flexible version.
 */
export const TxnOffsetCommit = defineApi({
  apiKey: 28,
  name: 'TxnOffsetCommit',
  versions: '0-2',
  flexibleVersions: '3+',
  request: {
    transactionalId: field(string),
    groupId: field(string),
    producerId: field(int64),
    producerEpoch: field(int16),
    topics: field(
      array(
        struct({
          name: field(string),
          partitions: field(
            array(
              struct({
                partitionIndex: field(int32),
                committedOffset: field(int64),
                committedLeaderEpoch: field(int32, { versions: '2+', default: -1 }),
                committedMetadata: field(string, { nullable: '0+' }),
              }),
            ),
          ),
        }),
      ),
    ),
  },
  response: {
    throttleTimeMs: field(int32),
    topics: field(
      array(
        struct({
          name: field(string),
          partitions: field(
            array(
              struct({
                partitionIndex: field(int32),
                errorCode: field(int16),
              }),
            ),
          ),
        }),
      ),
    ),
  },
});
