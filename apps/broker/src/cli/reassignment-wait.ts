import type { Writable } from 'node:stream';
import { type Admin, type InternalAdmin, moveProgress } from '@weir/protocol';
import { formatBytes } from './byte-size';
import { readClusterPlacement } from './reassignment-state';

/** How often `--wait` asks how far the moves are; each ask reads every broker's log sizes. */
const POLL_INTERVAL_MS = 1000;
/** Carriage return, then erase the line: the next text replaces the old progress in place. */
const REWRITE_LINE = '\r\u001b[2K';

export interface WaitDeps {
  stderr: Writable & { isTTY?: boolean };
  nowMs: () => number;
  /** Resolves when the user asks to stop (Ctrl-C): the moves go on without the command. */
  shutdownSignal: () => Promise<string>;
}

/**
 * `--wait`: follows the submitted moves until every one has completed, with one self-overwriting
 * progress line on a terminal (partitions left, bytes the new replicas have copied of what they
 * need) and, on a pipe, one line per partition as it completes. Ctrl-C stops following, not the moves.
 */
export async function waitForMoves(
  session: { admin: Admin; internal: InternalAdmin },
  partitions: readonly { topic: string; partition: number }[],
  deps: WaitDeps,
): Promise<void> {
  const startedMs = deps.nowMs();
  const tty = deps.stderr.isTTY === true;
  let interrupted = false;
  void deps.shutdownSignal().then(() => {
    interrupted = true;
  });
  let pending = new Set(partitions.map(({ topic, partition }) => `${topic}-${partition}`));
  while (!interrupted) {
    const moves = await session.internal.listPartitionReassignments(partitions);
    const moving = new Set(moves.map((move) => `${move.topic}-${move.partition}`));
    for (const name of pending) {
      if (!moving.has(name) && !tty) deps.stderr.write(`${name}: completed\n`);
    }
    pending = moving;
    if (moves.length === 0) break;
    if (tty) {
      const state = await readClusterPlacement(session.admin);
      let copied = 0;
      let needed = 0;
      for (const move of moves) {
        const placement = state.placements.find(
          (p) => p.topic === move.topic && p.partition === move.partition,
        );
        const leader = placement?.leader ?? -1;
        const leaderSize = leader < 0 ? undefined : state.sizeBytesOf(move.topic, move.partition, leader);
        const isr = state.isrOf.get(`${move.topic}-${move.partition}`) ?? [];
        for (const replica of moveProgress(move, leader, isr, (id) =>
          state.sizeBytesOf(move.topic, move.partition, id),
        )) {
          needed += leaderSize ?? 0;
          copied += replica.inSync ? (leaderSize ?? 0) : Math.min(replica.copiedBytes ?? 0, leaderSize ?? 0);
        }
      }
      const percent = needed > 0 ? Math.floor((copied / needed) * 100) : 0;
      deps.stderr.write(
        `${REWRITE_LINE}${moves.length} partition(s) moving: ${formatBytes(copied)} of ${formatBytes(needed)} copied (${percent}%)`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
  }
  if (tty) deps.stderr.write(REWRITE_LINE);
  const seconds = ((deps.nowMs() - startedMs) / 1000).toFixed(1);
  deps.stderr.write(
    interrupted
      ? 'Stopped following; the moves go on (weir partition reassign --status).\n'
      : `Every move completed in ${seconds} s.\n`,
  );
}
