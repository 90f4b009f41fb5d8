import { defineApi } from '../../schema/api';
import { field, struct } from '../../schema/struct';
import { array, int16, int32, int64, string } from '../../schema/types';

/**
 * ListTransactions (key 66), version 0: transaction inspection (KIP-664), the transactions a
 * coordinator knows, filtered by state and producer id (empty filters match everything). Kafka has
 * no non-flexible version of this API, so v0 is defined flexible (compact encodings, tagged-field
 * sections, request header v2 / response header v1); whether it is advertised is up to the
 * transactions work, since kafkajs and librdkafka 2.0.2 never send it. Kafka's v1 adds a duration
 * filter and is left out.
 */
export const ListTransactions = defineApi({
  apiKey: 66,
  name: 'ListTransactions',
  versions: '0',
  flexibleVersions: '0+',
  request: {
    stateFilters: field(array(string)),
    producerIdFilters: field(array(int64)),
  },
  response: {
    throttleTimeMs: field(int32),
    errorCode: field(int16),
    unknownStateFilters: field(array(string)),
    transactionStates: field(
      array(
        struct({
          transactionalId: field(string),
          producerId: field(int64),
          transactionState: field(string),
        }),
      ),
    ),
  },
});
