import { defineApi } from '../../schema/api';
import { field, struct } from '../../schema/struct';
import { array, int16, int32, int64, string } from '../../schema/types';

/**
 * DescribeProducers (key 61), version 0: transaction inspection (KIP-664), the producers with state
 * on each partition. Kafka has no non-flexible version of this API, so v0 is defined flexible
 * (compact encodings, tagged-field sections, request header v2 / response header v1); whether it is
 * advertised is up to the transactions work, since kafkajs and librdkafka 2.0.2 never send it.
 */
export const DescribeProducers = defineApi({
  apiKey: 61,
  name: 'DescribeProducers',
  versions: '0',
  flexibleVersions: '0+',
  request: {
    topics: field(
      array(
        struct({
          name: field(string),
          partitionIndexes: field(array(int32)),
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
                errorMessage: field(string, { nullable: '0+', default: null }),
                activeProducers: field(
                  array(
                    struct({
                      producerId: field(int64),
                      // int32 in Kafka's definition, unlike the int16 epoch everywhere else.
                      producerEpoch: field(int32),
                      lastSequence: field(int32, { default: -1 }),
                      lastTimestamp: field(int64, { default: -1n }),
                      coordinatorEpoch: field(int32),
                      currentTxnStartOffset: field(int64, { default: -1n }),
                    }),
                  ),
                ),
              }),
            ),
          ),
        }),
      ),
    ),
  },
});
