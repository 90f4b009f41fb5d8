import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { CreateTopics, EndTxn, ErrorCode, encodeRequestFrame, OffsetFetch } from '@weir/protocol';
import { startBroker } from '@weir/test-broker';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { temporaryDirectory } from './log-fixtures';
import { RawClient } from './raw-client';
import { TxnInspector, TxnWire } from './txn-fixtures';

// A child broker process starts through tsx, which takes seconds on a busy machine.
vi.setConfig({ testTimeout: 60_000 });

const SETTINGS = {
  topics: { autoCreateEnable: false },
  groups: { offsetsTopicPartitions: 2 },
  transactions: { stateTopicPartitions: 3 },
};

/** `__transaction_state` is read back at start: states, producer ids, epochs and open partitions. */
describe('transaction state across restarts', () => {
  let directory: { path: string; cleanup: () => Promise<void> };
  /** The brokers a test started on the directory; a test that failed half-way left them running. */
  const started: Awaited<ReturnType<typeof startBroker>>[] = [];
  beforeEach(async () => {
    directory = await temporaryDirectory('weir-txn-');
  });
  afterEach(async () => {
    for (const running of started.splice(0)) await running.stop();
    await directory.cleanup();
  });

  it('recovers finished and open transactions after a clean restart', async () => {
    const first = await startBroker(SETTINGS, directory.path);
    started.push(first);
    await first.broker.services.topics.createTopic({ name: 'kept', partitionCount: 2, configs: {} });
    let client = await RawClient.connect(first.bootstrap);
    let wire = new TxnWire(client);
    const done = await wire.claim('tx-done');
    expect(await wire.addPartitions(done, 'kept', [0])).toEqual([0]);
    expect(await wire.produce(done, 'kept', 0, ['one'], 0)).toBe(0);
    expect(await wire.end(done, true)).toBe(0);
    const open = await wire.claim('tx-open');
    expect(await wire.addPartitions(open, 'kept', [1])).toEqual([0]);
    expect(await wire.produce(open, 'kept', 1, ['two', 'three'], 0)).toBe(0);
    await client.close();
    await first.stop();

    const second = await startBroker(SETTINGS, directory.path);
    started.push(second);
    try {
      expect(second.broker.readiness().find((check) => check.name === 'transactions')?.ok).toBe(true);
      client = await RawClient.connect(second.bootstrap);
      wire = new TxnWire(client);
      const inspector = new TxnInspector(second);
      expect(await inspector.describe('tx-done')).toMatchObject({
        transactionState: 'CompleteCommit',
        producerId: done.producerId,
        producerEpoch: done.producerEpoch,
      });
      expect(await inspector.describe('tx-open')).toMatchObject({
        transactionState: 'Ongoing',
        topics: [{ topic: 'kept', partitions: [1] }],
      });
      // The open transaction goes on where it was: the partition is still a member.
      expect(await wire.produce(open, 'kept', 1, ['four'], 2)).toBe(0);
      expect(await wire.latest('kept', 1, true)).toBe(0);
      expect(await wire.end(open, true)).toBe(0);
      expect(await wire.latest('kept', 1, true)).toBe(4);
      // The producer id survived too: the next InitProducerId bumps the stored epoch.
      const again = await wire.claim('tx-done');
      expect(again).toEqual({ ...done, producerEpoch: done.producerEpoch + 1 });
      await inspector.close();
      await client.close();
    } finally {
      await second.stop();
    }
  });

  it('completes a PrepareCommit left by a SIGKILL before the broker is ready', async () => {
    const child: ChildProcess = spawn(
      process.execPath,
      ['--import', 'tsx', new URL('./fixtures/txn-crash-child.ts', import.meta.url).pathname, directory.path],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const lines = createInterface({ input: child.stdout! });
    const nextLine = (prefix: string) =>
      new Promise<string>((resolve, reject) => {
        child.once('exit', (code, signal) => reject(new Error(`child exited early (${code ?? signal})`)));
        const onLine = (line: string) => {
          if (!line.startsWith(prefix)) return;
          lines.off('line', onLine);
          resolve(line);
        };
        lines.on('line', onLine);
      });
    try {
      const port = Number((await nextLine('ready')).split(' ')[1]);
      const client = await RawClient.connect(`127.0.0.1:${port}`);
      const created = await client.request(CreateTopics, 4, {
        topics: [{ name: 'crash', numPartitions: 2, replicationFactor: 1, assignments: [], configs: [] }],
        timeoutMs: 5000,
        validateOnly: false,
      });
      expect(created.topics[0]!.errorCode).toBe(0);
      const wire = new TxnWire(client);
      const claim = await wire.claim('tx-crash');
      expect(await wire.addPartitions(claim, 'crash', [0, 1])).toEqual([0, 0]);
      expect(await wire.produce(claim, 'crash', 0, ['a', 'b'], 0)).toBe(0);
      expect(await wire.produce(claim, 'crash', 1, ['c'], 0)).toBe(0);
      expect(await wire.addOffsets(claim, 'crash-group')).toBe(0);
      expect(await wire.commitOffsets(claim, 'crash-group', 'crash', { 0: 7 })).toEqual([0]);
      // The answer never comes: the child stops right after PrepareCommit is durable.
      const prepared = nextLine('prepared');
      client.send(encodeRequestFrame(EndTxn, 1, 999, 'crash-test', { ...claim, committed: true }));
      await prepared;
      child.kill('SIGKILL');
      await exited;
      await client.close().catch(() => {});
    } finally {
      // Killed is not gone: the child may write into the directory until its 'exit'.
      child.kill('SIGKILL');
      await exited;
    }

    // start() resolves only after recovery: by then the markers and offsets are in place.
    const restarted = await startBroker(SETTINGS, directory.path);
    started.push(restarted);
    try {
      expect(restarted.broker.readiness().every((check) => check.ok)).toBe(true);
      const client = await RawClient.connect(restarted.bootstrap);
      const wire = new TxnWire(client);
      const inspector = new TxnInspector(restarted);
      expect((await inspector.describe('tx-crash')).transactionState).toBe('CompleteCommit');
      expect(await wire.latest('crash', 0, false)).toBe(3);
      expect(await wire.latest('crash', 0, true)).toBe(3);
      expect(await wire.latest('crash', 1, true)).toBe(2);
      const offsets = await client.request(OffsetFetch, 4, {
        groupId: 'crash-group',
        topics: [{ name: 'crash', partitionIndexes: [0] }],
      });
      expect(offsets.topics[0]!.partitions[0]!.committedOffset).toBe(7n);
      // The producer's retry of EndTxn after the restart is answered as done.
      const { producerId, producerEpoch } = await inspector.describe('tx-crash');
      const claim = { transactionalId: 'tx-crash', producerId, producerEpoch };
      expect(await wire.end(claim, true)).toBe(ErrorCode.NONE);
      await inspector.close();
      await client.close();
    } finally {
      await restarted.stop();
    }
  });
});
