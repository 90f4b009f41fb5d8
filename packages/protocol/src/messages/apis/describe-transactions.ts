import { defineApi } from '../../schema/api';
import { field, struct } from '../../schema/struct';
import { array, int16, int32, int64, string } from '../../schema/types';

/**
 * DescribeTransactions (key 65), version 0: transaction inspection (KIP-664), the coordinator's
 * state for each transactional id. Kafka has no non-flexible version of this API, so v0 is defined
 * flexible (compact encodings, tagged-field sections, request header v2 / response header v1);
 * whether it is advertised is up to the transactions work, since kafkajs and librdkafka 2.0.2 never
 * send it.
 */
export const DescribeTransactions = defineApi({
  apiKey: 65,
  name: 'DescribeTransactions',
  versions: '0',
  flexibleVersions: '0+',
  request: {
    transactionalIds: field(array(string)),
  },
  response: {
    throttleTimeMs: field(int32),
    transactionStates: field(
      array(
        struct({
          errorCode: field(int16),
          transactionalId: field(string),
          transactionState: field(string),
          transactionTimeoutMs: field(int32),
          transactionStartTimeMs: field(int64),
          producerId: field(int64),
          producerEpoch: field(int16),
          topics: field(
            array(
              struct({
                topic: field(string),
                partitions: field(array(int32)),
              }),
            ),
          ),
        }),
      ),
    ),
  },
});
