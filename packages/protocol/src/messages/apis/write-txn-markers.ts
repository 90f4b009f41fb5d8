import { defineApi } from '../../schema/api';
import { field, struct } from '../../schema/struct';
import { array, bool, int16, int32, int64, string } from '../../schema/types';

/**
 * WriteTxnMarkers (key 27), version 0: a transaction coordinator asks a partition leader to append
 * COMMIT (`transactionResult` true) or ABORT markers for producers' transactions, each stamped with
 * the coordinator epoch, and the leader answers per partition (docs/architecture.md §5). Only
 * brokers send it, on the internal listener; v1 is the first flexible version and is not defined.
 */
export const WriteTxnMarkers = defineApi({
  apiKey: 27,
  name: 'WriteTxnMarkers',
  versions: '0',
  flexibleVersions: '1+',
  request: {
    markers: field(
      array(
        struct({
          producerId: field(int64),
          producerEpoch: field(int16),
          transactionResult: field(bool),
          topics: field(
            array(
              struct({
                name: field(string),
                partitionIndexes: field(array(int32)),
              }),
            ),
          ),
          coordinatorEpoch: field(int32),
        }),
      ),
    ),
  },
  response: {
    markers: field(
      array(
        struct({
          producerId: field(int64),
          topics: field(
            array(
              struct({
                name: field(string),
                partitions: field(
                  array(
                    struct({
                      partitionIndex: field(int32),
                      errorCode: field(int16),
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
