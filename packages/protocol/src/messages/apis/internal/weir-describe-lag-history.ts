import { defineApi } from '../../../schema/api';
import { field, struct } from '../../../schema/struct';
import { array, bool, float64, int16, int32, int64, string } from '../../../schema/types';

/**
 * WeirDescribeLagHistory (key 32016, Weir only), version 0: consumer lag over time, as the
 * answering broker sampled it for the groups it coordinates (docs/architecture.md §9). Every
 * series of the answer has one value per bucket of `resolutionMs` from `startMs`; NaN where no
 * sample was taken. Rates are records per second: consumed, as the group's committed offsets
 * moved, and produced, as its partitions' last stable offsets moved. A group without history
 * answers NaN series (no error): it may be coordinated elsewhere, deleted, or not sampled yet.
 * Served only by the internal listener.
 */
export const WeirDescribeLagHistory = defineApi({
  apiKey: 32016,
  name: 'WeirDescribeLagHistory',
  versions: '0',
  flexibleVersions: '0+',
  request: {
    groupIds: field(array(string)),
    /** From when, in ms since the epoch; the answer uses the finest tier that reaches back to it. */
    sinceMs: field(int64),
    /** Each partition's lag too, not only the group's total. */
    includePartitions: field(bool, { default: false }),
  },
  response: {
    errorCode: field(int16),
    errorMessage: field(string, { nullable: '0+', default: null }),
    /** How often the answering broker samples (the fine tier's resolution). */
    sampleIntervalMs: field(int32, { default: -1 }),
    groups: field(
      array(
        struct({
          groupId: field(string),
          errorCode: field(int16),
          resolutionMs: field(int32),
          startMs: field(int64),
          totalLag: field(array(float64)),
          consumedPerSecond: field(array(float64)),
          producedPerSecond: field(array(float64)),
          partitions: field(
            array(
              struct({
                topic: field(string),
                partition: field(int32),
                lag: field(array(float64)),
              }),
            ),
          ),
        }),
      ),
    ),
  },
});
