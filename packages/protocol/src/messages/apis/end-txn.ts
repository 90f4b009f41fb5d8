import { defineApi } from '../../schema/api';
import { field } from '../../schema/struct';
import { bool, int16, int32, int64, string } from '../../schema/types';

/**
 * EndTxn (key 26), versions 0–2 (docs/kafka-compat.md §3, §9): both clients send at most v1 (v2 is v1 with
 * PRODUCER_FENCED allowed, which Weir never sends), and a range
 * that misses librdkafka's 0–1 disables transactions for it (Tansu's failure). v3 is the first
 * flexible version. `committed` is true to commit, false to abort.
 */
export const EndTxn = defineApi({
  apiKey: 26,
  name: 'EndTxn',
  versions: '0-2',
  flexibleVersions: '3+',
  request: {
    transactionalId: field(string),
    producerId: field(int64),
    producerEpoch: field(int16),
    committed: field(bool),
  },
  response: {
    throttleTimeMs: field(int32),
    errorCode: field(int16),
  },
});
