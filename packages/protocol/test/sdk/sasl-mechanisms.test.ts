import { type RunningBroker, startBroker } from '@weir/test-broker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Admin } from '../../src/client/admin';
import { saslClientExchange } from '../../src/client/auth/sasl-client-exchange';
import type { SaslOptions } from '../../src/client/auth/sasl-options';
import { Client } from '../../src/client/client';
import { Consumer } from '../../src/client/consumer';
import { InternalAdmin } from '../../src/client/internal/internal-admin';
import { Producer } from '../../src/client/producer';
import { ErrorCode } from '../../src/errors/error-codes';
import { WeirError } from '../../src/errors/weir-error';
import { pollRecords } from './helpers';

const USER = { username: 'sdk-user', password: 'sdk-user-password-81c2' } as const;

let broker: RunningBroker;

beforeAll(async () => {
  broker = await startBroker({
    listeners: { client: { securityProtocol: 'SASL_PLAINTEXT' } },
    security: { authFailureDelayMs: 0 },
  });
  const internalClient = new Client({
    bootstrapServers: [broker.internalBootstrap],
    sasl: { mechanism: 'WEIR-TOKEN', token: broker.internalToken },
  });
  try {
    const internal = new InternalAdmin(internalClient);
    await internal.upsertUser({ ...USER, mechanism: 'SCRAM-SHA-256' });
    await internal.upsertUser({ ...USER, mechanism: 'SCRAM-SHA-512', iterations: 4096 });
  } finally {
    await internalClient.close();
  }
});
afterAll(async () => {
  await broker?.dispose();
});

describe('the SDK over SASL_PLAINTEXT', () => {
  it.each(['PLAIN', 'SCRAM-SHA-256', 'SCRAM-SHA-512'] as const)(
    'produces and consumes as a %s user on every connection it opens',
    async (mechanism) => {
      const client = new Client({ bootstrapServers: [broker.bootstrap], sasl: { mechanism, ...USER } });
      try {
        const topic = `sasl-${mechanism.toLowerCase()}`;
        await new Admin(client).createTopics([{ name: topic, partitions: 1 }]);
        const producer = new Producer(client);
        await producer.send({
          topic,
          messages: [{ value: Buffer.from('one') }, { value: Buffer.from('two') }],
        });
        await producer.close();
        const consumer = new Consumer(client);
        consumer.assign([{ topic, partition: 0, offset: 0 }]);
        const records = await pollRecords(consumer, 2);
        expect(records.map((record) => record.value?.toString())).toEqual(['one', 'two']);
        await consumer.close();
      } finally {
        await client.close();
      }
    },
  );

  it('fails with SASL_AUTHENTICATION_FAILED, not retried and without the password, on a wrong one', async () => {
    const sasl: SaslOptions = { mechanism: 'SCRAM-SHA-512', username: USER.username, password: 'wrong-one' };
    const client = new Client({ bootstrapServers: [broker.bootstrap], sasl, retry: { maxAttempts: 3 } });
    try {
      const error = await new Admin(client).listTopics().then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(WeirError);
      expect((error as WeirError).code).toBe(ErrorCode.SASL_AUTHENTICATION_FAILED);
      expect((error as WeirError).retriable).toBe(false);
      expect((error as WeirError).message).not.toContain('wrong-one');
    } finally {
      await client.close();
    }
  });

  it('starts PLAIN with an empty authorization id', () => {
    const exchange = saslClientExchange({ mechanism: 'PLAIN', ...USER });
    expect(exchange.initialBytes().toString('utf8')).toBe(`\0${USER.username}\0${USER.password}`);
  });
});
