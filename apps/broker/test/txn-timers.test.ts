import { ErrorCode } from '@weir/protocol';
import { startBroker } from '@weir/test-broker';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GroupScheduler } from '../src/group/group-scheduler';
import { pollUntil } from './group-fixtures';
import { temporaryDirectory } from './log-fixtures';
import { RawClient } from './raw-client';
import { TxnInspector, TxnWire } from './txn-fixtures';

/** A clock that moves only when the test says so; due timers run on {@link advance}. */
class ManualScheduler implements GroupScheduler {
  #nowMs = 1_700_000_000_000;
  #timers: { atMs: number; task: () => void; cancelled: boolean }[] = [];

  nowMs(): number {
    return this.#nowMs;
  }

  schedule(delayMs: number, task: () => void): () => void {
    const timer = { atMs: this.#nowMs + Math.max(0, delayMs), task, cancelled: false };
    this.#timers.push(timer);
    return () => {
      timer.cancelled = true;
    };
  }

  advance(ms: number): void {
    this.#nowMs += ms;
    const due = this.#timers.filter((timer) => !timer.cancelled && timer.atMs <= this.#nowMs);
    this.#timers = this.#timers.filter((timer) => !due.includes(timer));
    for (const timer of due) timer.task();
  }
}

const SETTINGS = {
  topics: { autoCreateEnable: false },
  groups: { offsetsTopicPartitions: 2 },
  transactions: {
    stateTopicPartitions: 2,
    abortTimedOutCheckIntervalMs: 10_000,
    idExpirationMs: 3_600_000,
  },
};

/** Transaction timeouts and transactional id expiry, driven by an injected clock. */
describe('transaction timers', () => {
  let directory: { path: string; cleanup: () => Promise<void> };
  /** The brokers a test started on the directory; a test that failed half-way left them running. */
  const started: Awaited<ReturnType<typeof startBroker>>[] = [];
  beforeEach(async () => {
    directory = await temporaryDirectory('weir-txn-timers-');
  });
  afterEach(async () => {
    for (const running of started.splice(0)) await running.stop();
    await directory.cleanup();
  });

  it('aborts a transaction past its timeout with the epoch bumped, then expires the idle id', async () => {
    const clock = new ManualScheduler();
    const running = await startBroker(SETTINGS, directory.path, { transactionScheduler: clock });
    started.push(running);
    await running.broker.services.topics.createTopic({ name: 'slow', partitionCount: 1, configs: {} });
    const client = await RawClient.connect(running.bootstrap);
    const wire = new TxnWire(client);
    const inspector = new TxnInspector(running);
    try {
      const claim = await wire.claim('tx-slow', 30_000);
      expect(await wire.addPartitions(claim, 'slow', [0])).toEqual([0]);
      expect(await wire.produce(claim, 'slow', 0, ['pending'], 0)).toBe(0);

      // Two checks within the timeout leave it alone.
      clock.advance(10_000);
      clock.advance(10_000);
      expect((await inspector.describe('tx-slow')).transactionState).toBe('Ongoing');
      clock.advance(10_000);
      const aborted = await pollUntil(async () => {
        const row = await inspector.describe('tx-slow');
        return row.transactionState === 'CompleteAbort' ? row : undefined;
      }, 'the timed-out transaction to be aborted');
      expect(aborted.producerEpoch).toBe(claim.producerEpoch + 1);
      expect(await wire.latest('slow', 0, true)).toBe(2);
      expect(await wire.end(claim, true)).toBe(ErrorCode.INVALID_PRODUCER_EPOCH);

      // An hour without requests: the id is forgotten, with a tombstone.
      clock.advance(3_600_000);
      await pollUntil(
        async () => (await inspector.describe('tx-slow')).errorCode === ErrorCode.TRANSACTIONAL_ID_NOT_FOUND,
        'the idle transactional id to expire',
      );
    } finally {
      await inspector.close();
      await client.close();
      await running.stop();
    }

    // The tombstone holds across a restart.
    const restarted = await startBroker(SETTINGS, directory.path, {
      transactionScheduler: new ManualScheduler(),
    });
    started.push(restarted);
    const again = new TxnInspector(restarted);
    try {
      expect((await again.describe('tx-slow')).errorCode).toBe(ErrorCode.TRANSACTIONAL_ID_NOT_FOUND);
    } finally {
      await again.close();
      await restarted.stop();
    }
  });
});
