import { ErrorCode } from '../errors/error-codes';
import { WeirError } from '../errors/weir-error';
import { ClosedError } from './closed-error';
import type { StartOffset } from './consumer-options';
import type { OffsetSpec } from './list-offsets';
import type { RetryPolicy } from './retry';

/** A {@link Consumer}'s state of one assigned partition: where it reads, and how it is failing. */
export interface PartitionState {
  readonly topic: string;
  readonly partition: number;
  /** The next offset to fetch; undefined until a start offset is resolved. */
  position: bigint | undefined;
  /** A position to look up with ListOffsets before fetching. */
  reset: OffsetSpec | undefined;
  /** Bumped by `seek`: answers to requests made before it are dropped. */
  generation: number;
  /** Part of a Fetch or ListOffsets in flight. */
  busy: boolean;
  /** Backoff after a failure. */
  notBeforeMs: number;
  /** Consecutive failures, for the backoff. */
  failures: number;
  /** When the current run of failures began. */
  failingSinceMs: number | undefined;
  /** A failure that stops the partition until the next `seek`. */
  halted: WeirError | undefined;
  /** The last Fetch left records between the position and the high watermark. */
  behind: boolean;
}

/** A newly assigned partition, to start reading at `offset`. */
export function partitionState(topic: string, partition: number, offset: StartOffset): PartitionState {
  const state: PartitionState = {
    topic,
    partition,
    position: undefined,
    reset: undefined,
    generation: 0,
    busy: false,
    notBeforeMs: 0,
    failures: 0,
    failingSinceMs: undefined,
    halted: undefined,
    behind: false,
  };
  setStart(state, offset);
  return state;
}

/**
 * Moves a partition to a new start offset (`seek`). A new generation drops the answers of requests
 * made before, and the partition's failures are forgotten, so a halted partition reads again.
 */
export function restart(state: PartitionState, offset: StartOffset): void {
  state.generation++;
  state.behind = false;
  state.halted = undefined;
  state.failures = 0;
  state.failingSinceMs = undefined;
  state.notBeforeMs = 0;
  setStart(state, offset);
}

/** A request for the partition succeeded: its run of failures is over. */
export function markSucceeded(state: PartitionState): void {
  state.failures = 0;
  state.failingSinceMs = undefined;
}

/**
 * Backs a partition off after a retriable failure. Returns true when the failures have lasted past
 * the retry policy's total time, so the failure should be reported (once per such period).
 */
export function backOff(state: PartitionState, policy: RetryPolicy, nowMs: number): boolean {
  state.failures++;
  state.failingSinceMs ??= nowMs;
  state.notBeforeMs = nowMs + policy.backoffMs(state.failures);
  if (nowMs - state.failingSinceMs > policy.maxTotalMs) {
    state.failingSinceMs = nowMs;
    return true;
  }
  return false;
}

/** A failure as a WeirError; a ClosedError stays one, since a close is not reported. */
export function asWeirError(error: unknown): WeirError | ClosedError {
  if (error instanceof WeirError || error instanceof ClosedError) return error;
  return new WeirError(ErrorCode.UNKNOWN_SERVER_ERROR, {
    detail: error instanceof Error ? error.message : String(error),
    cause: error,
  });
}

function setStart(state: PartitionState, offset: StartOffset): void {
  if (typeof offset === 'bigint' || typeof offset === 'number') {
    const position = BigInt(offset);
    if (position < 0n) throw new RangeError(`a start offset must be ≥ 0, got ${offset}`);
    state.position = position;
    state.reset = undefined;
    return;
  }
  if (offset !== 'earliest' && offset !== 'latest' && !Number.isSafeInteger(offset?.timestampMs)) {
    throw new RangeError(`a start offset is a number, 'earliest', 'latest' or { timestampMs }`);
  }
  state.position = undefined;
  state.reset = offset;
}
