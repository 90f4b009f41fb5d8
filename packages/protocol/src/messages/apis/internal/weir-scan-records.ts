import { defineApi } from '../../../schema/api';
import { field, struct } from '../../../schema/struct';
import { array, bool, bytes, int8, int16, int32, int64, string } from '../../../schema/types';

/**
 * WeirScanRecords (key 32004, Weir only), versions 0–2: one bounded step of a broker-side scan of a
 * topic's records with filters on keys, values and headers. The broker stops at whichever limit
 * comes first (matches per partition, records examined, wall time) and says where each partition
 * continues, so a console can stream progress by calling again.
 *
 * Filters: `field` is "key", "value", "headerKey" or "headerValue"; `operator` is "contains",
 * "notContains" or "equals"; `value` is compared as bytes. `compression` in a record is Kafka's
 * codec id from the batch attributes (0 none, 1 gzip, 2 snappy, 3 lz4, 4 zstd). An unknown topic or
 * any requested partition that does not exist fails the whole request with
 * UNKNOWN_TOPIC_OR_PARTITION; a partition whose log fails while it is read carries the error on its
 * own progress row.
 *
 * Version 1 adds the JSON fields "keyJson" and "valueJson", whose filters carry a `path` into the
 * key or value (`user.id`, `items[0].sku`). A version 0 broker refuses those field names as
 * unknown, so a filter is never silently widened to the whole value by a broker that lacks them.
 *
 * Version 2 adds the request's `isolationLevel` (Fetch's values: 0 read_uncommitted, 1
 * read_committed) and each record's `transactionStatus` and `producerEpoch`. The status is
 * {@link SCAN_TRANSACTION_STATUS}: none for a record outside any transaction, else committed,
 * aborted, or open (its transaction is not decided yet). read_uncommitted returns what earlier
 * versions return, with the marks; read_committed has Kafka's Fetch semantics: the range ends at
 * the last stable offset and the records of aborted transactions are skipped (they still count as
 * examined). From version 2 control records (transaction markers) are never returned; versions 0–1
 * return them to an unfiltered scan, as before. Earlier versions carry no status: a v0–1 answer
 * decodes with `transactionStatus` -1 (unknown).
 */
export const WeirScanRecords = defineApi({
  apiKey: 32004,
  name: 'WeirScanRecords',
  versions: '0-2',
  flexibleVersions: '0+',
  request: {
    topic: field(string),
    partitions: field(
      array(
        struct({
          partitionIndex: field(int32),
          startOffset: field(int64),
          endOffset: field(int64, { default: -1n }),
        }),
      ),
    ),
    filters: field(
      array(
        struct({
          field: field(string),
          operator: field(string),
          value: field(bytes),
          path: field(string, { versions: '1+', nullable: '1+', default: null }),
        }),
      ),
    ),
    maxMatchesPerPartition: field(int32),
    maxScanRecords: field(int32),
    maxScanMs: field(int32),
    maxValueBytes: field(int32),
    isolationLevel: field(int8, { versions: '2+', default: 0 }),
  },
  response: {
    errorCode: field(int16),
    errorMessage: field(string, { nullable: '0+', default: null }),
    records: field(
      array(
        struct({
          partitionIndex: field(int32),
          offset: field(int64),
          timestampMs: field(int64),
          logAppendTime: field(bool),
          key: field(bytes, { nullable: '0+', default: null }),
          keyBytes: field(int32),
          value: field(bytes, { nullable: '0+', default: null }),
          valueBytes: field(int32),
          headers: field(
            array(
              struct({
                key: field(string),
                value: field(bytes, { nullable: '0+', default: null }),
              }),
            ),
          ),
          transactional: field(bool),
          control: field(bool),
          producerId: field(int64),
          compression: field(int8),
          transactionStatus: field(int8, { versions: '2+', default: -1 }),
          producerEpoch: field(int16, { versions: '2+', default: -1 }),
        }),
      ),
    ),
    partitions: field(
      array(
        struct({
          partitionIndex: field(int32),
          errorCode: field(int16),
          nextOffset: field(int64),
          endOffset: field(int64),
          done: field(bool),
        }),
      ),
    ),
    scannedRecords: field(int32),
    scannedBytes: field(int64),
  },
});

/** WeirScanRecords v2's `transactionStatus` values, by name. */
export const SCAN_TRANSACTION_STATUS = {
  none: 0,
  committed: 1,
  aborted: 2,
  open: 3,
} as const;
