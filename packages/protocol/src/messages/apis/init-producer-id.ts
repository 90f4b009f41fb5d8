import { defineApi } from '../../schema/api';
import { field } from '../../schema/struct';
import { int16, int32, int64, string } from '../../schema/types';

/**
 * InitProducerId (key 22), versions 0–1 (docs/kafka-compat.md §3): the range must contain 0 because
 * librdkafka < 2.11.1 turns idempotence off unless v0 is advertised, and v2 is the first flexible
 * version. v0 and v1 are identical on the wire. A null transactional id asks for an idempotent
 * (non-transactional) producer id.
 */
export const InitProducerId = defineApi({
  apiKey: 22,
  name: 'InitProducerId',
  versions: '0-1',
  flexibleVersions: '2+',
  request: {
    transactionalId: field(string, { nullable: '0+' }),
    transactionTimeoutMs: field(int32),
  },
  response: {
    throttleTimeMs: field(int32),
    errorCode: field(int16),
    producerId: field(int64, { default: -1n }),
    producerEpoch: field(int16),
  },
});
