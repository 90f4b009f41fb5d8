import type { EpochEndOffset } from '../log/leader-epoch-cache';

/** What the leader answered about one epoch of the follower's log (OffsetForLeaderEpoch v1+). */
export interface LeaderEpochAnswer {
  /** The epoch the follower asked about. */
  epoch: number;
  /** The largest epoch at or below it in the leader's log, -1 when it has none. */
  leaderEpoch: number;
  /** Where that epoch ends in the leader's log, -1 when it has none. */
  leaderEndOffset: number;
}

/** The follower's log, as far as the truncation needs it. */
export interface FollowerLogEpochs {
  logEndOffset: number;
  endOffsetForEpoch(epoch: number): EpochEndOffset;
}

/** Where to cut the follower's log, or which older epoch to ask the leader about next. */
export type DivergenceCut = { kind: 'cut'; offset: number } | { kind: 'ask-again'; epoch: number };

/**
 * Where a follower's log stops agreeing with its leader's (KIP-101, KIP-279; cluster-brief §1.1):
 * the records of an epoch both logs have agree up to where the epoch ends in the shorter of the
 * two, and everything after that is the follower's alone. When the leader's answer is for an
 * older epoch than the one asked (the follower has epochs the leader never had), the follower
 * looks for that epoch in its own log; if it does not have it either, the two are asked about
 * the follower's largest epoch below it, until they agree. A leader with no epoch at or below
 * the one asked shares none of these records: the follower keeps nothing of them. The cut is
 * never taken from the high watermark, the mistake KIP-101 fixed.
 */
export function divergenceCut(answer: LeaderEpochAnswer, follower: FollowerLogEpochs): DivergenceCut {
  if (answer.leaderEpoch < 0 || answer.leaderEndOffset < 0) return { kind: 'cut', offset: 0 };
  if (answer.leaderEpoch >= answer.epoch) {
    return { kind: 'cut', offset: Math.min(answer.leaderEndOffset, follower.logEndOffset) };
  }
  const own = follower.endOffsetForEpoch(answer.leaderEpoch);
  if (own.epoch === answer.leaderEpoch) {
    return { kind: 'cut', offset: Math.min(answer.leaderEndOffset, own.endOffset, follower.logEndOffset) };
  }
  // Only epochs below the one asked can come next, so the exchange ends.
  if (own.epoch < 0 || own.epoch >= answer.epoch) return { kind: 'cut', offset: 0 };
  return { kind: 'ask-again', epoch: own.epoch };
}
