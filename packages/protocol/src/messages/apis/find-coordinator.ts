import { defineApi } from '../../schema/api';
import { field } from '../../schema/struct';
import { int8, int16, int32, string } from '../../schema/types';

/**
 * FindCoordinator (key 10), versions 0–2: which node coordinates a group or a transactional id.
 * librdkafka 2.0.2 probes exactly v0 (without it, consumer groups and LZ4 are switched off) and
 * needs v1+ for the key type that transactions use; v3 is flexible (docs/kafka-compat.md §3).
 */
export const FindCoordinator = defineApi({
  apiKey: 10,
  name: 'FindCoordinator',
  versions: '0-2',
  flexibleVersions: '3+',
  request: {
    key: field(string, { versions: '0-3' }),
    /** 0 = consumer group, 1 = transactional id. */
    keyType: field(int8, { versions: '1+' }),
  },
  response: {
    throttleTimeMs: field(int32, { versions: '1+' }),
    errorCode: field(int16, { versions: '0-3' }),
    errorMessage: field(string, { versions: '1-3', nullable: '1-3' }),
    nodeId: field(int32, { versions: '0-3' }),
    host: field(string, { versions: '0-3' }),
    port: field(int32, { versions: '0-3' }),
  },
});
