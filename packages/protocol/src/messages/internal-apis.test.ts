import { describe, expect, it } from 'vitest';
import { isFlexible } from '../schema/api';
import { WeirDescribeLogCleaner } from './apis/internal/weir-describe-log-cleaner';
import { WeirScanRecords } from './apis/internal/weir-scan-records';
import { INTERNAL_APIS, WEIR_API_KEY_MIN } from './internal-apis';
import {
  decodeRequestFrame,
  decodeResponseFrame,
  encodeRequestFrame,
  encodeResponseFrame,
} from './message-codec';
import { apiByKey } from './registry';

describe("Weir's internal APIs", () => {
  it('use keys 32000–32018, version 0 (and 1 for the user APIs the console reads fingerprints from), flexible', () => {
    expect(INTERNAL_APIS.map((api) => [api.apiKey, api.name])).toEqual([
      [32000, 'WeirDescribeBroker'],
      [32001, 'WeirListTopicSummaries'],
      [32002, 'WeirDescribePartitions'],
      [32003, 'WeirDescribeGroupLags'],
      [32004, 'WeirScanRecords'],
      [32005, 'WeirAbortTransaction'],
      [32006, 'WeirListUsers'],
      [32007, 'WeirUpsertUser'],
      [32008, 'WeirDeleteUser'],
      [32009, 'WeirVerifyCredentials'],
      [32010, 'WeirDescribeEffectivePermissions'],
      [32011, 'WeirVerifyTransactionMembership'],
      [32012, 'WeirApplyTxnOffsets'],
      [32013, 'WeirListClusterEvents'],
      [32014, 'WeirDescribeReplication'],
      [32015, 'WeirDescribeLogCleaner'],
      [32016, 'WeirDescribeLagHistory'],
      [32017, 'WeirDescribeThroughputHistory'],
      [32018, 'WeirListAuditEvents'],
    ]);
    for (const api of INTERNAL_APIS) {
      expect(api.apiKey).toBeGreaterThanOrEqual(WEIR_API_KEY_MIN);
      const latestVersions: Record<string, number> = {
        WeirListUsers: 1,
        WeirVerifyCredentials: 1,
        WeirScanRecords: 2,
      };
      const latest = latestVersions[api.name] ?? 0;
      expect([api.versions.min, api.versions.max]).toEqual([0, latest]);
      expect(isFlexible(api, 0)).toBe(true);
      expect(apiByKey(api.apiKey)).toBe(api);
    }
  });

  it.each([
    [0, [{ field: 'headerValue', operator: 'contains', value: Buffer.from('tr\u00e9s'), path: null }]],
    [1, [{ field: 'valueJson', operator: 'equals', value: Buffer.from('42'), path: 'user["a.b"][0]' }]],
    [2, [{ field: 'key', operator: 'equals', value: Buffer.from('k'), path: null }]],
  ])('decode through the shared registry, as the broker decodes any request (v%i)', (version, filters) => {
    const body = {
      topic: 'orders',
      partitions: [{ partitionIndex: 3, startOffset: 42n, endOffset: -1n }],
      filters,
      maxMatchesPerPartition: 50,
      maxScanRecords: 100_000,
      maxScanMs: 2000,
      maxValueBytes: 4096,
      // Absent before v2, where it decodes as its default, read_uncommitted.
      isolationLevel: version >= 2 ? 1 : 0,
    };
    const frame = encodeRequestFrame(WeirScanRecords, version, 9, 'gateway', body);
    const decoded = decodeRequestFrame(frame.subarray(4), apiByKey);
    if (!decoded.ok) throw decoded.error;
    expect(decoded.header).toEqual({
      apiKey: 32004,
      apiVersion: version,
      correlationId: 9,
      clientId: 'gateway',
    });
    expect(decoded.body).toEqual(body);
  });

  it('leave the JSON path out of version 0, where the broker has no path to read', () => {
    const body = {
      topic: 'orders',
      partitions: [{ partitionIndex: 0, startOffset: 0n, endOffset: -1n }],
      filters: [{ field: 'valueJson', operator: 'equals', value: Buffer.from('42'), path: 'user.id' }],
      maxMatchesPerPartition: 1,
      maxScanRecords: 1,
      maxScanMs: 1,
      maxValueBytes: 0,
      isolationLevel: 0,
    };
    const decoded = decodeRequestFrame(
      encodeRequestFrame(WeirScanRecords, 0, 1, 'g', body).subarray(4),
      apiByKey,
    );
    if (!decoded.ok) throw decoded.error;
    expect((decoded.body as typeof body).filters[0]).toMatchObject({ field: 'valueJson', path: null });
  });

  it('leave the isolation level out before version 2, so an older broker reads uncommitted', () => {
    const body = {
      topic: 'orders',
      partitions: [{ partitionIndex: 0, startOffset: 0n, endOffset: -1n }],
      filters: [],
      maxMatchesPerPartition: 1,
      maxScanRecords: 1,
      maxScanMs: 1,
      maxValueBytes: 0,
      isolationLevel: 1,
    };
    const decoded = decodeRequestFrame(
      encodeRequestFrame(WeirScanRecords, 1, 1, 'g', body).subarray(4),
      apiByKey,
    );
    if (!decoded.ok) throw decoded.error;
    expect((decoded.body as typeof body).isolationLevel).toBe(0);
  });

  it('carry the transaction status and producer epoch of a scanned record from version 2 only', () => {
    const record = {
      partitionIndex: 0,
      offset: 7n,
      timestampMs: 1_700_000_000_000n,
      logAppendTime: false,
      key: null,
      keyBytes: -1,
      value: Buffer.from('abc'),
      valueBytes: 3,
      headers: [],
      transactional: true,
      control: false,
      producerId: 12n,
      compression: 0,
      transactionStatus: 2,
      producerEpoch: 5,
    };
    const body = {
      errorCode: 0,
      errorMessage: null,
      records: [record],
      partitions: [],
      scannedRecords: 1,
      scannedBytes: 100n,
    };
    const atVersion = (version: number) => {
      const frame = encodeResponseFrame(WeirScanRecords, version, 5, body);
      const decoded = decodeResponseFrame(WeirScanRecords, version, frame.subarray(4));
      if (!decoded.ok) throw decoded.error;
      return decoded.value.body.records[0];
    };
    expect(atVersion(2)).toEqual(record);
    expect(atVersion(1)).toEqual({ ...record, transactionStatus: -1, producerEpoch: -1 });
  });

  it('carry null keys, values and header values of scanned records through a response', () => {
    const body = {
      errorCode: 0,
      errorMessage: null,
      records: [
        {
          partitionIndex: 0,
          offset: 7n,
          timestampMs: 1_700_000_000_000n,
          logAppendTime: false,
          key: null,
          keyBytes: -1,
          value: Buffer.from('abc'),
          valueBytes: 300,
          headers: [{ key: 'h', value: null }],
          transactional: true,
          control: false,
          producerId: 12n,
          compression: 4,
          // Not on the wire at v0; the decoder fills in the defaults.
          transactionStatus: -1,
          producerEpoch: -1,
        },
      ],
      partitions: [{ partitionIndex: 0, errorCode: 0, nextOffset: 8n, endOffset: 10n, done: false }],
      scannedRecords: 8,
      scannedBytes: 1024n,
    };
    const frame = encodeResponseFrame(WeirScanRecords, 0, 5, body);
    const decoded = decodeResponseFrame(WeirScanRecords, 0, frame.subarray(4));
    if (!decoded.ok) throw decoded.error;
    expect(decoded.value.body).toEqual(body);
  });

  it("carry the log cleaner's fractional ratios, its error and the -1 of a partition never cleaned", () => {
    const body = {
      errorCode: 0,
      errorMessage: null,
      brokerId: 2,
      partitions: [
        {
          topic: 'prices',
          partition: 0,
          leader: true,
          cleanedUpToOffset: 1_000n,
          dirtyRatio: 0.3125,
          minCleanableDirtyRatio: 0.5,
          lastCleanedAtMs: 1_700_000_000_000n,
          lastOutcome: 'not-due',
          lastError: null,
          lastCleanRemovedBytes: 65_536n,
          removedBytesTotal: 131_072n,
          nextCleanDue: 'dirty-ratio',
          nextCleanDueAtMs: 1_700_000_600_000n,
        },
        {
          topic: 'prices',
          partition: 1,
          leader: false,
          cleanedUpToOffset: -1n,
          dirtyRatio: 0,
          minCleanableDirtyRatio: 0.01,
          lastCleanedAtMs: -1n,
          lastOutcome: 'failed',
          lastError: 'EIO: i/o error, read',
          lastCleanRemovedBytes: -1n,
          removedBytesTotal: 0n,
          nextCleanDue: 'retry',
          nextCleanDueAtMs: 1_700_000_015_000n,
        },
      ],
    };
    const frame = encodeResponseFrame(WeirDescribeLogCleaner, 0, 11, body);
    const decoded = decodeResponseFrame(WeirDescribeLogCleaner, 0, frame.subarray(4));
    if (!decoded.ok) throw decoded.error;
    expect(decoded.value.body).toEqual(body);
  });
});
