import {
  batchCompressionId,
  batchTimestampType,
  DecodeError,
  ErrorCode,
  type RecordBatchHeader,
  setBatchMaxTimestamp,
  WeirError,
} from '@weir/protocol';
import type { LogConfig } from './log-config';
import type { AppendOrigin } from './log-validator';
import { readRecordTimestamps } from './record-timestamps';

/** The timestamp rules of one topic, as the batch check applies them. */
export interface TimestampLimits {
  /** How far before the broker's clock a record may be; Infinity for no limit. */
  beforeMaxMs: number;
  /** How far after the broker's clock a record may be; Infinity for no limit. */
  afterMaxMs: number;
}

/**
 * The limits a topic's configs set. As in Kafka 3.6 and later (KIP-937), each of
 * message.timestamp.before.max.ms and after.max.ms that is left at no limit takes the deprecated
 * message.timestamp.difference.max.ms instead, so topics configured before the split keep their rule.
 */
export function timestampLimits(
  config: Pick<LogConfig, 'timestampBeforeMaxMs' | 'timestampAfterMaxMs' | 'timestampDifferenceMaxMs'>,
): TimestampLimits {
  const fallback = config.timestampDifferenceMaxMs;
  return {
    beforeMaxMs: Number.isFinite(config.timestampBeforeMaxMs) ? config.timestampBeforeMaxMs : fallback,
    afterMaxMs: Number.isFinite(config.timestampAfterMaxMs) ? config.timestampAfterMaxMs : fallback,
  };
}

/**
 * Whether a CreateTime header may hold a wrong max timestamp that only its records can show.
 * Every producer writes its first record's time as the base timestamp, so a max below the base
 * (Sarama's -1 among them) is wrong; a lone record's time is the base plus its delta, which is
 * zero from every producer, so a lone record whose max is not the base is worth a look. Anything
 * else is what a correct producer sends, and a compressed batch is then trusted rather than
 * decompressed.
 */
function headerMayBeWrong(header: RecordBatchHeader): boolean {
  if (header.maxTimestampMs < header.baseTimestampMs) return true;
  return header.recordCount === 1 && header.maxTimestampMs !== header.baseTimestampMs;
}

/**
 * Checks the timestamps of one batch a producer or a coordinator appends (docs/kafka-compat.md
 * §6.3); a replica's batches are the leader's and are not checked again. On a CreateTime topic
 * every record's timestamp must lie within the topic's limits around `nowMs` (INVALID_TIMESTAMP
 * otherwise, naming the partition), and the header's max timestamp must be the largest of them:
 * when it is not, it is rewritten in place with a new CRC, which is cheaper than the re-encoding
 * Kafka's LogValidator does and has the same result. Uncompressed records are always read (a walk
 * over lengths and deltas); compressed ones only when a limit is set or the header cannot be
 * right (see headerMayBeWrong). On a LogAppendTime topic the broker stamps its own time when the
 * batch is written (append-group.ts), so nothing here depends on the records. A producer may not
 * mark its batch LogAppendTime on any topic. Returns the header as it is after the check.
 */
export function checkBatchTimestamps(
  batch: Buffer,
  header: RecordBatchHeader,
  origin: AppendOrigin,
  config: Pick<
    LogConfig,
    'timestampType' | 'timestampBeforeMaxMs' | 'timestampAfterMaxMs' | 'timestampDifferenceMaxMs'
  >,
  nowMs: number,
  partitionName: string,
): RecordBatchHeader {
  if (origin === 'replication') return header;
  if (origin === 'client' && batchTimestampType(header.attributes) === 'log-append-time') {
    throw new WeirError(ErrorCode.INVALID_TIMESTAMP, {
      detail: `a producer may not set the LogAppendTime timestamp type (topic partition ${partitionName})`,
    });
  }
  if (config.timestampType === 'LogAppendTime') return header;
  const limits = timestampLimits(config);
  const limited = Number.isFinite(limits.beforeMaxMs) || Number.isFinite(limits.afterMaxMs);
  const compressed = batchCompressionId(header.attributes) !== 0;
  if (compressed && !limited && !headerMayBeWrong(header)) return header;
  let range: ReturnType<typeof readRecordTimestamps>;
  try {
    range = readRecordTimestamps(batch, header);
  } catch (error) {
    if (!(error instanceof DecodeError)) throw error;
    throw new WeirError(ErrorCode.CORRUPT_MESSAGE, {
      detail: `unreadable records in a batch for topic partition ${partitionName}: ${error.message}`,
    });
  }
  if (range.minMs !== undefined) {
    const earliestMs = nowMs - limits.beforeMaxMs;
    const latestMs = nowMs + limits.afterMaxMs;
    const outside = range.minMs < earliestMs ? range.minMs : range.maxMs > latestMs ? range.maxMs : undefined;
    if (outside !== undefined) {
      throw new WeirError(ErrorCode.INVALID_TIMESTAMP, {
        detail: `timestamp ${outside} of a record for topic partition ${partitionName} is out of range: it should be within [${earliestMs}, ${latestMs}]`,
      });
    }
  }
  if (range.maxMs === header.maxTimestampMs) return header;
  const crc = setBatchMaxTimestamp(batch, range.maxMs);
  return { ...header, maxTimestampMs: range.maxMs, crc };
}
