import type { CompressionType } from '../records/batch-attributes';
import { COMPRESSION_TYPES } from '../records/batch-attributes';
import type { ProducerOptions } from './producer-options';

/** Kafka keeps the last five batches per producer and partition for deduplication. */
const MAX_IDEMPOTENT_IN_FLIGHT = 5;
/**
 * A batch closes at this estimated size (an upper bound of the encoded size), so a full batch still
 * fits Kafka's default max.message.bytes of 1 MiB + 12. Batches only get this large under load:
 * with lingerMs 0 a batch leaves at the end of its event-loop turn unless its partition is busy.
 * Large batches are what make high throughput cheap, for the producer and for the broker alike.
 */
const DEFAULT_BATCH_BYTES = 1024 * 1024;

/** A producer's options, checked and with their defaults filled in. */
export interface ProducerSettings {
  readonly acks: -1 | 0 | 1;
  readonly idempotent: boolean;
  readonly compression: CompressionType;
  readonly lingerMs: number;
  readonly batchBytes: number;
  readonly maxRequestBytes: number;
  readonly maxInFlight: number;
  readonly bufferBytes: number;
}

/** Checks a producer's options and fills in the defaults; throws a RangeError for the first bad one. */
export function producerSettings(options: ProducerOptions): ProducerSettings {
  const acks = options.acks ?? -1;
  if (acks !== -1 && acks !== 0 && acks !== 1) {
    throw new RangeError(`acks must be -1, 0 or 1, got ${acks}`);
  }
  const idempotent = options.idempotent ?? acks === -1;
  if (idempotent && acks !== -1) {
    throw new RangeError(`an idempotent producer needs acks=-1, got acks=${acks}`);
  }
  const compression = options.compression ?? 'none';
  if (!COMPRESSION_TYPES.includes(compression)) {
    throw new RangeError(`unknown compression "${compression}"`);
  }
  const lingerMs = atLeast('lingerMs', options.lingerMs ?? 0, 0);
  const batchBytes = atLeast('batchBytes', options.batchBytes ?? DEFAULT_BATCH_BYTES, 1);
  const maxRequestBytes = atLeast('maxRequestBytes', options.maxRequestBytes ?? 1024 * 1024, 1);
  const maxInFlight = atLeast('maxInFlightPerPartition', options.maxInFlightPerPartition ?? 5, 1);
  if (maxInFlight > MAX_IDEMPOTENT_IN_FLIGHT && idempotent) {
    throw new RangeError(`an idempotent producer allows at most 5 batches in flight per partition`);
  }
  const bufferBytes = atLeast('bufferBytes', options.bufferBytes ?? 32 * 1024 * 1024, 1);
  return { acks, idempotent, compression, lingerMs, batchBytes, maxRequestBytes, maxInFlight, bufferBytes };
}

function atLeast(name: string, value: number, min: number): number {
  if (!Number.isFinite(value) || value < min) throw new RangeError(`${name} must be ≥ ${min}, got ${value}`);
  return value;
}
