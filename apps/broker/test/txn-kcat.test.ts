import { type RunningBroker, startBroker } from '@weir/test-broker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kcat as runKcat } from './kcat-clients';
import { TxnInspector } from './txn-fixtures';

/**
 * kcat's transactional producer (Debian's, librdkafka 2.0.2): InitProducerId v1 with the id,
 * AddPartitionsToTxn v0 and EndTxn v1, committed at end of input (docs/kafka-compat.md §2.2).
 */
describe('kcat transactions against Weir', () => {
  let running: RunningBroker;

  beforeAll(async () => {
    running = await startBroker({
      topics: { autoCreateEnable: false },
      transactions: { stateTopicPartitions: 2 },
    });
    await running.broker.services.topics.createTopic({ name: 'kcat-tx', partitionCount: 1, configs: {} });
  });
  afterAll(async () => {
    await running.dispose();
  });

  function kcat(args: string[], input?: string): Promise<string> {
    return runKcat(running, args, input);
  }

  it('commits what it produced at end of input; read_committed readers see it', async () => {
    await kcat(
      ['-P', '-t', 'kcat-tx', '-p', '0', '-X', 'transactional.id=kcat-producer'],
      'one\ntwo\nthree\n',
    );
    const inspector = new TxnInspector(running);
    try {
      expect(await inspector.describe('kcat-producer')).toMatchObject({
        errorCode: 0,
        transactionState: 'CompleteCommit',
      });
    } finally {
      await inspector.close();
    }
    const read = await kcat([
      '-C',
      '-t',
      'kcat-tx',
      '-o',
      'beginning',
      '-e',
      '-X',
      'isolation.level=read_committed',
      '-f',
      '%o %s\n',
    ]);
    expect(read.trim().split('\n')).toEqual(['0 one', '1 two', '2 three']);
  });
});
