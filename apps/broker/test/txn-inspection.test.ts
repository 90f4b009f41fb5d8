import { ErrorCode } from '@weir/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningBroker, startBroker } from './broker-harness';
import { weirFailure } from './internal-fixtures';
import { RawClient } from './raw-client';
import { TxnInspector, TxnWire } from './txn-fixtures';

/** DescribeProducers, the operator's abort over the internal listener, and the metrics. */
describe('transaction inspection and operator abort', () => {
  let running: RunningBroker;
  let client: RawClient;
  let wire: TxnWire;
  let inspector: TxnInspector;

  beforeAll(async () => {
    running = await startBroker({
      topics: { autoCreateEnable: false },
      groups: { offsetsTopicPartitions: 2 },
      transactions: { stateTopicPartitions: 2 },
    });
    await running.broker.commands.topics.createTopics(
      [{ name: 'inspect', partitionCount: 2, replicationFactor: 1, assignments: [], configs: {} }],
      false,
    );
    client = await RawClient.connect(running.bootstrap);
    wire = new TxnWire(client);
    inspector = new TxnInspector(running);
  });
  afterAll(async () => {
    await inspector.close();
    await client.close();
    await running.dispose();
  });

  it('shows the producers of a partition with their open transaction, and aborts a hanging one', async () => {
    const claim = await wire.claim('tx-hanging');
    expect(await wire.addPartitions(claim, 'inspect', [0])).toEqual([0]);
    expect(await wire.produce(claim, 'inspect', 0, ['a', 'b'], 0)).toBe(0);

    const [partition0, missing] = await inspector.producers('inspect', [0, 5]);
    expect(missing).toMatchObject({ partitionIndex: 5, errorCode: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION });
    expect(partition0).toMatchObject({ partitionIndex: 0, errorCode: 0 });
    expect(partition0!.activeProducers).toEqual([
      expect.objectContaining({
        producerId: claim.producerId,
        producerEpoch: claim.producerEpoch,
        lastSequence: 1,
        currentTxnStartOffset: 0n,
      }),
    ]);

    const admin = inspector.internal;
    expect((await weirFailure(admin.abortTransaction('tx-hanging', ' '))).code).toBe(
      ErrorCode.INVALID_REQUEST,
    );
    expect((await weirFailure(admin.abortTransaction('nobody', 'stuck'))).code).toBe(
      ErrorCode.TRANSACTIONAL_ID_NOT_FOUND,
    );
    await admin.abortTransaction('tx-hanging', 'producer host died; LSO stuck');
    // Nothing is open any more, so the abort is refused the second time.
    expect((await weirFailure(admin.abortTransaction('tx-hanging', 'again'))).code).toBe(
      ErrorCode.INVALID_TXN_STATE,
    );
    expect(await wire.latest('inspect', 0, true)).toBe(3);
    const described = await inspector.describe('tx-hanging');
    expect(described).toMatchObject({
      transactionState: 'CompleteAbort',
      producerEpoch: claim.producerEpoch + 1,
    });
    // The producer that left it open is fenced.
    expect(await wire.produce(claim, 'inspect', 0, ['late'], 2)).toBe(ErrorCode.INVALID_PRODUCER_EPOCH);
    expect(await wire.end(claim, true)).toBe(ErrorCode.INVALID_PRODUCER_EPOCH);
  });

  it('counts commits, aborts and open transactions in the metrics', async () => {
    const claim = await wire.claim('tx-metrics');
    expect(await wire.addPartitions(claim, 'inspect', [1])).toEqual([0]);
    const open = await running.metrics.registry.metrics();
    expect(open).toContain('weir_transactions_open 1');
    expect(await wire.end(claim, true)).toBe(0);
    const after = await running.metrics.registry.metrics();
    expect(after).toContain('weir_transactions_open 0');
    expect(after).toMatch(/weir_transactions_total\{result="commit"\} [1-9]/);
    expect(after).toMatch(/weir_transactions_total\{result="abort"\} [1-9]/);
    expect(after).toMatch(/weir_transaction_duration_seconds_count [2-9]/);
  });
});
