import { startBroker } from '@weir/test-broker';
import { Kafka, logLevel } from 'kafkajs';
import { describe, expect, it, onTestFinished } from 'vitest';
import { pollUntil } from '../group-fixtures';
import { HistoryRecorder } from './history-recorder';

describe('history recorder', () => {
  it('records kafkajs sends and polls against a real broker as a clean history, a refused send as failed', async () => {
    const broker = await startBroker({
      log: { maxMessageBytes: 1024 },
      groups: { initialRebalanceDelayMs: 0 },
    });
    onTestFinished(() => broker.dispose());
    const kafka = new Kafka({ clientId: 'history', brokers: [broker.bootstrap], logLevel: logLevel.NOTHING });
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic: 'queue', numPartitions: 2 }] });
    await admin.disconnect();

    const recorder = new HistoryRecorder();
    const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    onTestFinished(() => producer.disconnect());
    for (let i = 0; i < 20; i++) await recorder.send('producer-1', producer, 'queue', i % 2, `value-${i}`);
    const refused = await recorder.send('producer-1', producer, 'queue', 0, 'x'.repeat(4096));
    expect(refused.status).toBe('fail');

    const consumer = kafka.consumer({ groupId: 'history-readers' });
    await consumer.connect();
    onTestFinished(() => consumer.disconnect());
    await consumer.subscribe({ topic: 'queue', fromBeginning: true });
    await consumer.run({
      eachBatch: async ({ batch }) => recorder.polled('consumer-1', batch.partition, batch.messages),
    });
    await pollUntil(() => recorder.valuesRead().size === 20, 'the consumer to read all 20 values');

    const report = recorder.check({ requireAllSeen: true });
    expect(report.anomalies).toEqual([]);
    expect(report.valid).toBe(true);
    expect(report.stats).toMatchObject({ sends: { ok: 20, fail: 1, unknown: 0 }, valuesRead: 20 });
    const offsets = recorder.operations.flatMap((operation) =>
      operation.type === 'send' && operation.partition === 1 ? [operation.offset] : [],
    );
    expect(offsets).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });
});
