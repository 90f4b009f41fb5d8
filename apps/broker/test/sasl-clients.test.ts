import {
  ApiVersions,
  ErrorCode,
  Metadata,
  SaslAuthenticate,
  SaslHandshake,
  saslClientExchange,
  WeirError,
} from '@weir/protocol';
import { type RunningBroker, startBroker } from '@weir/test-broker';
import { Kafka, logLevel } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { internalSession } from './internal-fixtures';
import { RawConnection, rawFrame } from './raw-socket';
import { ADMIN, kcatSasl, listTopicsAs, recordingScheduler, saslBrokerConfig } from './sasl-fixtures';

const ALICE = { username: 'alice', password: 'alice-password-3f9e' } as const;

describe('SASL_PLAINTEXT client listener', { timeout: 60_000 }, () => {
  let running: RunningBroker;

  beforeAll(async () => {
    running = await startBroker(saslBrokerConfig());
    const session = internalSession(running);
    try {
      for (const mechanism of ['SCRAM-SHA-256', 'SCRAM-SHA-512'] as const) {
        await session.internal.upsertUser({ ...ALICE, mechanism, iterations: 4096 });
      }
    } finally {
      await session.close();
    }
  });
  afterAll(async () => {
    await running?.dispose();
  });

  it('advertises SaslHandshake 0-1 and SaslAuthenticate 0-1 (no flexible version)', async () => {
    const connection = await RawConnection.open(running.port);
    const versions = await connection.request(ApiVersions, 2, {
      clientSoftwareName: 'test',
      clientSoftwareVersion: '0',
    });
    await connection.destroy();
    const byKey = new Map(versions.apiKeys.map((range) => [range.apiKey, range]));
    expect(byKey.get(SaslHandshake.apiKey)).toMatchObject({ minVersion: 0, maxVersion: 1 });
    expect(byKey.get(SaslAuthenticate.apiKey)).toMatchObject({ minVersion: 0, maxVersion: 1 });
  });

  it.each(['PLAIN', 'SCRAM-SHA-256', 'SCRAM-SHA-512'] as const)(
    'authenticates the SDK with %s, and refuses a wrong password',
    async (mechanism) => {
      expect(await listTopicsAs(running, { mechanism, ...ALICE })).toBeInstanceOf(Array);
      const refused = await listTopicsAs(running, { mechanism, username: 'alice', password: 'not-it' });
      expect(refused).toBeInstanceOf(WeirError);
      expect((refused as WeirError).code).toBe(ErrorCode.SASL_AUTHENTICATION_FAILED);
      expect((refused as WeirError).message).not.toContain('not-it');
    },
  );

  it('authenticates the bootstrap admin created at start', async () => {
    expect(await listTopicsAs(running, { mechanism: 'SCRAM-SHA-512', ...ADMIN })).toBeInstanceOf(Array);
  });

  it('closes a connection that sends anything but ApiVersions and SASL before authenticating', async () => {
    const connection = await RawConnection.open(running.port);
    await connection.send(Metadata, 4, {
      topics: null,
      allowAutoTopicCreation: false,
      includeClusterAuthorizedOperations: false,
      includeTopicAuthorizedOperations: false,
    });
    await connection.closed();
  });

  it('runs the exchange as raw tokens after SaslHandshake v0 (SCRAM and PLAIN)', async () => {
    for (const mechanism of ['SCRAM-SHA-256', 'PLAIN'] as const) {
      const connection = await RawConnection.open(running.port);
      const handshake = await connection.request(SaslHandshake, 0, { mechanism });
      expect(handshake.errorCode).toBe(ErrorCode.NONE);
      const client = saslClientExchange({ mechanism, ...ALICE });
      let token: Buffer | undefined = client.initialBytes();
      while (token !== undefined) {
        await connection.write(rawFrame(token));
        token = await client.next(await connection.nextFrame());
      }
      const metadata = await connection.request(Metadata, 4, {
        topics: null,
        allowAutoTopicCreation: false,
        includeClusterAuthorizedOperations: false,
        includeTopicAuthorizedOperations: false,
      });
      expect(metadata.brokers).toHaveLength(1);
      await connection.destroy();
    }
  });

  it('closes a raw-token exchange with a wrong password without an answer', async () => {
    const connection = await RawConnection.open(running.port);
    await connection.request(SaslHandshake, 0, { mechanism: 'PLAIN' });
    await connection.write(rawFrame(Buffer.from('\0alice\0wrong')));
    await connection.closed();
  });

  it('serves kafkajs 2.2.4 over PLAIN and SCRAM-SHA-512', async () => {
    for (const mechanism of ['plain', 'scram-sha-512'] as const) {
      const kafka = new Kafka({
        clientId: 'sasl-kafkajs',
        brokers: [running.bootstrap],
        logLevel: logLevel.NOTHING,
        sasl:
          mechanism === 'plain' ? { mechanism, ...ALICE } : { mechanism: 'scram-sha-512' as const, ...ALICE },
        retry: { retries: 0 },
      });
      const admin = kafka.admin();
      await admin.connect();
      try {
        await admin.createTopics({ topics: [{ topic: `kafkajs-${mechanism}`, numPartitions: 1 }] });
        expect(await admin.listTopics()).toContain(`kafkajs-${mechanism}`);
      } finally {
        await admin.disconnect();
      }
      const producer = kafka.producer();
      await producer.connect();
      try {
        const [sent] = await producer.send({ topic: `kafkajs-${mechanism}`, messages: [{ value: 'hello' }] });
        expect(sent!.errorCode).toBe(0);
      } finally {
        await producer.disconnect();
      }
    }
  });

  it('refuses kafkajs with a wrong SCRAM-SHA-512 password', async () => {
    const kafka = new Kafka({
      clientId: 'sasl-kafkajs',
      brokers: [running.bootstrap],
      logLevel: logLevel.NOTHING,
      sasl: { mechanism: 'scram-sha-512', username: 'alice', password: 'wrong' },
      retry: { retries: 0 },
    });
    const admin = kafka.admin();
    await expect(admin.connect()).rejects.toMatchObject({ name: 'KafkaJSSASLAuthenticationError' });
  });

  it('serves kcat (librdkafka 2.0.2) with SCRAM-SHA-256, refuses a wrong password and keeps serving', async () => {
    const scram = { mechanism: 'SCRAM-SHA-256', ...ALICE };
    const listed = await kcatSasl(running, scram, ['-L']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(`broker 0 at 127.0.0.1:${running.port}`);

    const refused = await kcatSasl(running, { ...scram, password: 'wrong' }, ['-L', '-m', '5']);
    expect(refused.code).not.toBe(0);
    expect(`${refused.stdout}${refused.stderr}`).toMatch(/Authentication failed|SASL/i);

    const produced = await kcatSasl(running, scram, ['-P', '-t', 'kcat-sasl'], [], 'one\ntwo\n');
    expect(produced.code).toBe(0);
    const consumed = await kcatSasl(running, scram, ['-C', '-t', 'kcat-sasl', '-o', 'beginning', '-e']);
    expect(consumed.stdout.trim().split('\n')).toEqual(['one', 'two']);
    expect((await kcatSasl(running, { mechanism: 'PLAIN', ...ALICE }, ['-L'])).code).toBe(0);
  });

  it('serves kcat through raw SASL frames when it does not ask for API versions (SaslHandshake v0)', async () => {
    const listed = await kcatSasl(
      running,
      { mechanism: 'SCRAM-SHA-512', ...ALICE },
      ['-L'],
      ['-X', 'api.version.request=false', '-X', 'broker.version.fallback=0.11.0'],
    );
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(`broker 0 at 127.0.0.1:${running.port}`);
  });

  it('counts authentications by mechanism and result', async () => {
    const metrics = await running.metrics.authenticationsTotal.get();
    const count = (mechanism: string, result: string) =>
      metrics.values.find((value) => value.labels.mechanism === mechanism && value.labels.result === result)
        ?.value ?? 0;
    expect(count('SCRAM-SHA-256', 'success')).toBeGreaterThan(0);
    expect(count('SCRAM-SHA-256', 'failure')).toBeGreaterThan(0);
    expect(count('PLAIN', 'failure')).toBeGreaterThan(0);
    expect(count('WEIR-TOKEN', 'success')).toBeGreaterThan(0);
  });
});

describe('failed authentications from one address', { timeout: 30_000 }, () => {
  it('are answered after a delay that doubles per failure, on the injected scheduler', async () => {
    const { scheduler, delays } = recordingScheduler();
    const running = await startBroker(saslBrokerConfig(1000), undefined, { authScheduler: scheduler });
    try {
      for (const mechanism of [
        'SCRAM-SHA-256',
        'PLAIN',
        'SCRAM-SHA-512',
        'PLAIN',
        'PLAIN',
        'PLAIN',
      ] as const) {
        const refused = await listTopicsAs(running, {
          mechanism,
          username: ADMIN.username,
          password: 'guess',
        });
        expect((refused as WeirError).code).toBe(ErrorCode.SASL_AUTHENTICATION_FAILED);
      }
      // Growing, capped at 16 times the base; a success is never delayed.
      expect(delays).toEqual([1000, 2000, 4000, 8000, 16_000, 16_000]);
      expect(await listTopicsAs(running, { mechanism: 'PLAIN', ...ADMIN })).toBeInstanceOf(Array);
      expect(delays).toHaveLength(6);
    } finally {
      await running.dispose();
    }
  });
});
