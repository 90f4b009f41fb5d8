import { readFile } from 'node:fs/promises';
import { type RunningBroker, startBroker } from '@weir/test-broker';
import { Kafka, logLevel } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capturedLogger, makeTlsFiles, type TlsFiles, tlsListener } from './tls-fixtures';

describe('kafkajs 2.2.4 over SSL', { timeout: 60_000 }, () => {
  let files: TlsFiles;
  let running: RunningBroker;
  const log = capturedLogger();

  beforeAll(async () => {
    files = await makeTlsFiles();
    running = await startBroker(
      {
        ...tlsListener(files, { clientAuth: 'required' }),
        topics: { autoCreateEnable: true },
        groups: { initialRebalanceDelayMs: 0 },
      },
      undefined,
      { logger: log.logger },
    );
  });
  afterAll(async () => {
    await running?.dispose();
    await files?.cleanup();
  });

  it('produces and consumes in a group over mutual TLS', async () => {
    const kafka = new Kafka({
      clientId: 'tls-kafkajs',
      brokers: [running.bootstrap],
      logLevel: logLevel.NOTHING,
      ssl: {
        ca: [await readFile(files.ca, 'utf8')],
        cert: await readFile(files.acme.cert, 'utf8'),
        key: await readFile(files.acme.key, 'utf8'),
      },
    });
    const producer = kafka.producer();
    await producer.connect();
    const messages = Array.from({ length: 30 }, (_, index) => ({ value: `m-${index}` }));
    await producer.send({ topic: 'tls-kafkajs', messages });
    await producer.disconnect();

    const consumer = kafka.consumer({ groupId: 'tls-group' });
    await consumer.connect();
    await consumer.subscribe({ topic: 'tls-kafkajs', fromBeginning: true });
    const seen: string[] = [];
    const done = new Promise<void>((resolve) => {
      void consumer.run({
        eachMessage: async ({ message }) => {
          seen.push(String(message.value));
          if (seen.length === messages.length) resolve();
        },
      });
    });
    await done;
    await consumer.disconnect();
    expect(seen).toEqual(messages.map((message) => message.value));
    const principals = new Set(
      log
        .lines()
        .filter((line) => line.msg === 'connection opened')
        .map((line) => line.principal),
    );
    expect(principals).toEqual(new Set(['User:CN=alice,OU=eng,O=Acme']));
  });

  it('cannot connect without a client certificate', async () => {
    const kafka = new Kafka({
      clientId: 'tls-kafkajs-anonymous',
      brokers: [running.bootstrap],
      logLevel: logLevel.NOTHING,
      ssl: { ca: [await readFile(files.ca, 'utf8')] },
      retry: { retries: 0 },
      connectionTimeout: 3000,
    });
    const admin = kafka.admin();
    await expect(admin.connect().then(() => admin.listTopics())).rejects.toThrow();
    await admin.disconnect();
  });
});
