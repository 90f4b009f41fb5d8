import type { RecordInput } from '../../packages/protocol/src/records/record-batch';

/**
 * Deterministic record workloads for the codec benchmark. Values are log-like text drawn from a
 * small vocabulary, so the compression codecs see realistic (neither random nor constant) data.
 */

const WORDS = [
  'order',
  'created',
  'user',
  'id',
  'amount',
  'currency',
  'EUR',
  'status',
  'pending',
  'shipped',
  'warehouse',
  'region',
  'eu-west',
  'sku',
  'quantity',
  'latency_ms',
];

/** A small xorshift generator, so every run benchmarks the same bytes. */
function createRandom(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 0x100000000;
  };
}

function textOfLength(lengthBytes: number, random: () => number): Buffer {
  const parts: string[] = [];
  let length = 0;
  while (length < lengthBytes) {
    const word = `${WORDS[Math.floor(random() * WORDS.length)]}=${Math.floor(random() * 100000)} `;
    parts.push(word);
    length += word.length;
  }
  return Buffer.from(parts.join('').slice(0, lengthBytes), 'latin1');
}

/** The size of the key every benchmark record carries; the value fills the rest of the payload. */
export const KEY_BYTES = 10;

/**
 * Records whose key and value together take `payloadBytes`, enough of them to fill about
 * `batchPayloadBytes`. Timestamps rise by one millisecond per record.
 */
export function makeRecords(payloadBytes: number, batchPayloadBytes: number): RecordInput[] {
  const random = createRandom(payloadBytes * 31 + batchPayloadBytes);
  const count = Math.max(1, Math.floor(batchPayloadBytes / payloadBytes));
  const baseTimestampMs = 1_700_000_000_000;
  const records: RecordInput[] = new Array(count);
  for (let index = 0; index < count; index++) {
    records[index] = {
      key: Buffer.from(`key-${String(index).padStart(KEY_BYTES - 4, '0')}`, 'latin1'),
      value: textOfLength(payloadBytes - KEY_BYTES, random),
      timestampMs: baseTimestampMs + index,
    };
  }
  return records;
}
