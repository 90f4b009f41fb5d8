import { ErrorCode } from '../../errors/error-codes';
import { WeirError } from '../../errors/weir-error';
import type { TopicPartitions } from '../../records/consumer-protocol';
import { ClosedError } from '../closed-error';
import type { TopicPartition } from './group-consumer-options';

/** Partitions grouped by topic, as the consumer protocol and OffsetFetch carry them. */
export function groupTopics(partitions: readonly TopicPartition[]): TopicPartitions[] {
  const byTopic = new Map<string, number[]>();
  for (const { topic, partition } of partitions)
    byTopic.set(topic, [...(byTopic.get(topic) ?? []), partition]);
  return [...byTopic].map(([topic, list]) => ({ topic, partitions: list }));
}

/** A failure as a WeirError; undefined for a close, which is not a failure. */
export function asWeirError(error: unknown): WeirError | undefined {
  if (error instanceof ClosedError) return undefined;
  if (error instanceof WeirError) return error;
  return new WeirError(ErrorCode.UNKNOWN_SERVER_ERROR, {
    detail: error instanceof Error ? error.message : String(error),
    cause: error,
  });
}

/** A rebalance listener threw: reported by the next poll. */
export function listenerError(error: unknown): WeirError {
  return new WeirError(ErrorCode.UNKNOWN_SERVER_ERROR, {
    detail: `a rebalance listener failed: ${String(error)}`,
    cause: error,
  });
}

/** Validates a positive option. */
export function positive(name: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0) throw new RangeError(`${name} must be > 0, got ${value}`);
  return value;
}
