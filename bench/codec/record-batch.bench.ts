import os from 'node:os';
import type { CompressionType } from '../../packages/protocol/src/records/batch-attributes';
import { BATCH_HEADER_BYTES, checkBatch } from '../../packages/protocol/src/records/batch-header';
import { compressionCodec } from '../../packages/protocol/src/records/compression/registry';
import { decodeRecordBatch, encodeRecordBatch } from '../../packages/protocol/src/records/record-batch';
import { consume, type Measurement, measure, sinkValue } from '../harness/measure';
import { type Column, formatCount, formatRate, formatTable } from '../harness/table';
import { makeRecords } from './workload';

/**
 * RecordBatch v2 codec throughput: encode and decode per codec for two record sizes and two batch
 * sizes, next to `Buffer.copy` of the same bytes (the memcpy floor: no codec can move bytes faster),
 * plus the broker's hot-path check (header decode + CRC-32C). Everything is measured in this run.
 *
 * The package's import is by path because `@weir/protocol`'s index does not list the records
 * module yet; switch to the package name once it does.
 */

const KIB = 1024;
const MIB = 1024 * KIB;
const MB = 1_000_000;
const GB = 1_000_000_000;
const RECORD_PAYLOAD_BYTES = [100, 1024] as const;
const BATCH_PAYLOAD_BYTES = [16 * KIB, MIB] as const;
const CODECS: readonly CompressionType[] = ['none', 'gzip', 'snappy', 'lz4', 'zstd'];
const ENCODE_TARGET_RECORDS_PER_SECOND = 3_000_000;
const CHECK_TARGET_BYTES_PER_SECOND = 1 * GB;
/** The library-only columns are context, not the subject, so they get shorter runs. */
const LIBRARY_BUDGET = { warmupMs: 30, budgetMs: 150 };

function sizeLabel(bytes: number): string {
  const [value, unit] =
    bytes >= MIB ? [bytes / MIB, 'MiB'] : bytes >= KIB ? [bytes / KIB, 'KiB'] : [bytes, 'B'];
  return `${Number.isInteger(value) ? value : value.toFixed(1)} ${unit}`;
}

const columns: Column[] = [
  { title: 'record' },
  { title: 'batch' },
  { title: 'codec' },
  { title: 'records', alignRight: true },
  { title: 'size', alignRight: true },
  { title: 'encode rec/s', alignRight: true },
  { title: 'encode MB/s', alignRight: true },
  { title: 'decode rec/s', alignRight: true },
  { title: 'decode MB/s', alignRight: true },
  { title: 'lib comp MB/s', alignRight: true },
  { title: 'lib decomp MB/s', alignRight: true },
];

/**
 * The compression library alone on the same records section (no record encoding or decoding),
 * so the table shows how much of a codec row is the library's own cost.
 */
function measureLibrary(compression: CompressionType, plain: Buffer): string[] {
  const codec = compressionCodec(compression);
  const section = plain.subarray(BATCH_HEADER_BYTES);
  const compressed = codec.compress(section);
  const compress = measure(() => consume(codec.compress(section).length), LIBRARY_BUDGET);
  const decompress = measure(
    () => consume(codec.decompress(compressed, section.length).length),
    LIBRARY_BUDGET,
  );
  return [
    formatRate((compress.opsPerSecond * section.length) / MB),
    formatRate((decompress.opsPerSecond * section.length) / MB),
  ];
}

const rows: string[][] = [];
const checkRows: string[][] = [];
const failures: string[] = [];
const startedMs = Date.now();

function rates(measurement: Measurement, recordCount: number, rawBytes: number): [string, string] {
  return [
    formatCount(measurement.opsPerSecond * recordCount),
    formatRate((measurement.opsPerSecond * rawBytes) / MB),
  ];
}

for (const payloadBytes of RECORD_PAYLOAD_BYTES) {
  for (const batchPayloadBytes of BATCH_PAYLOAD_BYTES) {
    const records = makeRecords(payloadBytes, batchPayloadBytes);
    const input = { records };
    const plain = encodeRecordBatch(input);
    const label = [sizeLabel(payloadBytes), sizeLabel(batchPayloadBytes)];

    // The memcpy floor: copying the uncompressed batch once, with the same byte count.
    const target = Buffer.allocUnsafe(plain.length);
    const copy = measure(() => consume(plain.copy(target)));
    const [copyRecords, copyMb] = rates(copy, records.length, plain.length);
    rows.push([
      ...label,
      'Buffer.copy',
      formatCount(records.length),
      sizeLabel(plain.length),
      copyRecords,
      copyMb,
      copyRecords,
      copyMb,
      '',
      '',
    ]);

    for (const compression of CODECS) {
      const encoded = encodeRecordBatch({ records, compression });
      const decoded = decodeRecordBatch(encoded);
      if (!decoded.ok || decoded.value.records.length !== records.length) {
        throw new Error(
          `${compression} batch did not round-trip: ${decoded.ok ? 'count' : decoded.error.message}`,
        );
      }
      const encode = measure(() => consume(encodeRecordBatch({ records, compression }).length));
      const decode = measure(() => {
        const result = decodeRecordBatch(encoded);
        consume(result.ok ? result.value.records.length : -1);
      });
      const [encodeRecords, encodeMb] = rates(encode, records.length, plain.length);
      const [decodeRecords, decodeMb] = rates(decode, records.length, plain.length);
      const library = compression === 'none' ? ['', ''] : measureLibrary(compression, plain);
      rows.push([
        ...label,
        compression,
        formatCount(records.length),
        sizeLabel(encoded.length),
        encodeRecords,
        encodeMb,
        decodeRecords,
        decodeMb,
        ...library,
      ]);
      if (compression === 'none' && payloadBytes === 100) {
        const recordsPerSecond = encode.opsPerSecond * records.length;
        if (recordsPerSecond < ENCODE_TARGET_RECORDS_PER_SECOND) {
          failures.push(
            `encode of 100-byte records in ${label[1]} batches: ${formatCount(recordsPerSecond)} records/s`,
          );
        }
      }
    }

    if (payloadBytes === 100) {
      const check = measure(() => {
        const result = checkBatch(plain);
        consume(result.ok ? result.value.recordCount : -1);
      });
      const bytesPerSecond = check.opsPerSecond * plain.length;
      checkRows.push([
        sizeLabel(plain.length),
        formatCount(check.opsPerSecond),
        formatRate(bytesPerSecond / GB),
        formatRate((copy.opsPerSecond * plain.length) / GB),
      ]);
      if (bytesPerSecond < CHECK_TARGET_BYTES_PER_SECOND) {
        failures.push(
          `header decode + CRC on ${sizeLabel(plain.length)} batches: ${formatRate(bytesPerSecond / GB)} GB/s`,
        );
      }
    }
  }
}

const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
console.log(`RecordBatch v2 codec throughput — Node ${process.version}, ${cpu}`);
console.log('Payload = key (10 B) + value per record. MB/s counts uncompressed batch bytes (MB = 10^6 B);');
console.log('"size" is the encoded batch. Buffer.copy of the uncompressed batch is the memcpy floor.');
console.log('"lib" columns: the compression library alone on the same records section.\n');
console.log(formatTable(columns, rows));
console.log('\nBroker hot path: batch header decode + CRC-32C check (no record decoding)\n');
console.log(
  formatTable(
    [
      { title: 'batch' },
      { title: 'batches/s', alignRight: true },
      { title: 'check GB/s', alignRight: true },
      { title: 'Buffer.copy GB/s', alignRight: true },
    ],
    checkRows,
  ),
);
console.log(
  `\nTargets: encode 100-byte records uncompressed ≥ ${formatCount(ENCODE_TARGET_RECORDS_PER_SECOND)} records/s; ` +
    `header decode + CRC ≥ ${formatRate(CHECK_TARGET_BYTES_PER_SECOND / GB)} GB/s.`,
);
console.log(failures.length === 0 ? 'All targets met.' : `Missed: ${failures.join('; ')}`);
console.log(`(${((Date.now() - startedMs) / 1000).toFixed(1)} s, sink ${sinkValue()})`);
