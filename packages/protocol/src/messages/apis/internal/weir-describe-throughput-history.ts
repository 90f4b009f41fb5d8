import { defineApi } from '../../../schema/api';
import { field, struct } from '../../../schema/struct';
import { array, float64, int16, int32, int64, string } from '../../../schema/types';

/**
 * WeirDescribeThroughputHistory (key 32017, Weir only), version 0: client traffic per topic over
 * time, as the answering broker counted it on the partitions it leads (docs/architecture.md §9),
 * per second: records and bytes produced and fetched by clients (replication is not counted).
 * Each series has one value per bucket of `resolutionMs` from `startMs`; NaN where no sample was
 * taken. The brokers' buckets are aligned, so a cluster's throughput is their sum. Served only by
 * the internal listener.
 */
export const WeirDescribeThroughputHistory = defineApi({
  apiKey: 32017,
  name: 'WeirDescribeThroughputHistory',
  versions: '0',
  flexibleVersions: '0+',
  request: {
    topics: field(array(string)),
    /** From when, in ms since the epoch; the answer uses the finest tier that reaches back to it. */
    sinceMs: field(int64),
  },
  response: {
    errorCode: field(int16),
    errorMessage: field(string, { nullable: '0+', default: null }),
    sampleIntervalMs: field(int32, { default: -1 }),
    topics: field(
      array(
        struct({
          topic: field(string),
          errorCode: field(int16),
          resolutionMs: field(int32),
          startMs: field(int64),
          recordsInPerSecond: field(array(float64)),
          recordsOutPerSecond: field(array(float64)),
          bytesInPerSecond: field(array(float64)),
          bytesOutPerSecond: field(array(float64)),
        }),
      ),
    ),
  },
});
