import { defineApi } from '../../schema/api';
import { field, struct } from '../../schema/struct';
import { array, bool, int16, int32, int64, string } from '../../schema/types';

/**
 * DescribeLogDirs (key 35), versions 0–4: the log directories of the broker asked, with the size and
 * lag of every partition replica in each. v1 is v0 (throttling changed); v2 is the first flexible
 * version; v3 adds the top-level error code; v4 adds each directory's total and usable bytes
 * (KIP-827). A null topic list asks for every partition. kafkajs 2.2.4 does not implement it;
 * Kafka's `kafka-log-dirs.sh` and AdminClient.describeLogDirs send it to each broker.
 */
export const DescribeLogDirs = defineApi({
  apiKey: 35,
  name: 'DescribeLogDirs',
  versions: '0-4',
  flexibleVersions: '2+',
  request: {
    topics: field(
      array(
        struct({
          topic: field(string),
          partitions: field(array(int32)),
        }),
      ),
      { nullable: '0+' },
    ),
  },
  response: {
    throttleTimeMs: field(int32),
    errorCode: field(int16, { versions: '3+', default: 0 }),
    results: field(
      array(
        struct({
          errorCode: field(int16),
          logDir: field(string),
          topics: field(
            array(
              struct({
                name: field(string),
                partitions: field(
                  array(
                    struct({
                      partitionIndex: field(int32),
                      partitionSize: field(int64),
                      offsetLag: field(int64),
                      isFutureKey: field(bool),
                    }),
                  ),
                ),
              }),
            ),
          ),
          totalBytes: field(int64, { versions: '4+', default: -1n }),
          usableBytes: field(int64, { versions: '4+', default: -1n }),
        }),
      ),
    ),
  },
});
