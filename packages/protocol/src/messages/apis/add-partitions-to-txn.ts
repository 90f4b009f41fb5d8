import { defineApi } from '../../schema/api';
import { field, struct } from '../../schema/struct';
import { array, int16, int32, int64, string } from '../../schema/types';

/**
 * AddPartitionsToTxn (key 24), versions 0–2 (docs/kafka-compat.md §0 item 5, §3): librdkafka sends only
 * v0 and kafkajs at most v1; v2 is v1 again (its clients also accept PRODUCER_FENCED, which Weir never
 * sends); v3 is the first flexible version. The "V3AndBelow" field names are
 * Kafka's own: from v4 the request carries a batch of transactions instead.
 */
export const AddPartitionsToTxn = defineApi({
  apiKey: 24,
  name: 'AddPartitionsToTxn',
  versions: '0-2',
  flexibleVersions: '3+',
  request: {
    v3AndBelowTransactionalId: field(string),
    v3AndBelowProducerId: field(int64),
    v3AndBelowProducerEpoch: field(int16),
    v3AndBelowTopics: field(
      array(
        struct({
          name: field(string),
          partitions: field(array(int32)),
        }),
      ),
    ),
  },
  response: {
    throttleTimeMs: field(int32),
    resultsByTopicV3AndBelow: field(
      array(
        struct({
          name: field(string),
          resultsByPartition: field(
            array(
              struct({
                partitionIndex: field(int32),
                partitionErrorCode: field(int16),
              }),
            ),
          ),
        }),
      ),
    ),
  },
});
