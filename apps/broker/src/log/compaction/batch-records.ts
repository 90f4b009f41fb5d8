import {
  BATCH_HEADER_BYTES,
  batchCompression,
  compressionCodec,
  DEFAULT_MAX_DECOMPRESSED_BYTES,
  type RecordBatchHeader,
  RecordReader,
} from '@weir/protocol';

const INITIAL_CAPACITY = 256;

/**
 * The records of one stored batch as the cleaner reads them: where each record's bytes lie, its
 * offset and timestamp deltas, where its key lies and whether its value is null. A clean visits
 * millions of records; decoding each into an object (with a BigInt offset) made allocation and
 * garbage collection most of its cost, so this keeps positions in typed arrays reused from batch
 * to batch, and key bytes stay where they are. One instance serves one clean at a time.
 *
 * `data` holds the record bytes: the batch itself, or its records decompressed.
 */
export class BatchRecords {
  count = 0;
  data: Buffer = Buffer.alloc(0);
  recordStart = new Int32Array(INITIAL_CAPACITY);
  recordEnd = new Int32Array(INITIAL_CAPACITY);
  offsetDelta = new Int32Array(INITIAL_CAPACITY);
  timestampDelta = new Float64Array(INITIAL_CAPACITY);
  keyStart = new Int32Array(INITIAL_CAPACITY);
  /** -1 for a record without a key. */
  keyLength = new Int32Array(INITIAL_CAPACITY);
  /** 1 for a tombstone (null value). */
  valueIsNull = new Uint8Array(INITIAL_CAPACITY);

  /**
   * Reads the records of `body` (one whole stored batch). The log validated every stored batch on
   * append or recovery, so a batch that does not parse now is damage: this throws a DecodeError.
   */
  load(body: Buffer, header: RecordBatchHeader): void {
    const compression = batchCompression(header.attributes);
    if (compression === undefined) throw new Error(`batch at ${header.baseOffset} has an unknown codec`);
    let data = body;
    let start = BATCH_HEADER_BYTES;
    if (compression !== 'none') {
      data = compressionCodec(compression).decompress(
        body.subarray(BATCH_HEADER_BYTES),
        DEFAULT_MAX_DECOMPRESSED_BYTES,
      );
      start = 0;
    }
    const count = header.recordCount;
    this.#ensureCapacity(count);
    const reader = new RecordReader(data, start, data.length);
    for (let index = 0; index < count; index++) {
      const recordStart = reader.position;
      const bodyBytes = reader.varint();
      const recordEnd = reader.position + bodyBytes;
      if (bodyBytes < 0 || recordEnd > reader.end)
        throw damaged(header, `record ${index} overruns the batch`);
      reader.int8();
      this.timestampDelta[index] = reader.varlongNumber();
      this.offsetDelta[index] = reader.varint();
      const keyLength = reader.varint();
      this.keyStart[index] = reader.position;
      this.keyLength[index] = keyLength;
      if (keyLength > 0) reader.position += keyLength;
      const valueLength = reader.varint();
      this.valueIsNull[index] = valueLength < 0 ? 1 : 0;
      if (valueLength > 0) reader.position += valueLength;
      // The headers follow within the record's length; the cleaner never needs them apart.
      if (keyLength < -1 || valueLength < -1 || reader.position > recordEnd)
        throw damaged(header, `record ${index} has fields beyond its length`);
      reader.position = recordEnd;
      this.recordStart[index] = recordStart;
      this.recordEnd[index] = recordEnd;
    }
    if (reader.position !== data.length) throw damaged(header, 'bytes are left after the last record');
    this.data = data;
    this.count = count;
  }

  #ensureCapacity(count: number): void {
    if (count <= this.recordStart.length) return;
    const capacity = Math.max(count, this.recordStart.length * 2);
    this.recordStart = new Int32Array(capacity);
    this.recordEnd = new Int32Array(capacity);
    this.offsetDelta = new Int32Array(capacity);
    this.timestampDelta = new Float64Array(capacity);
    this.keyStart = new Int32Array(capacity);
    this.keyLength = new Int32Array(capacity);
    this.valueIsNull = new Uint8Array(capacity);
  }
}

function damaged(header: RecordBatchHeader, reason: string): Error {
  return new Error(`stored batch at offset ${header.baseOffset} is damaged: ${reason}`);
}
