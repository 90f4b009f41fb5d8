import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { Client, ErrorCode, InternalAdmin, WeirError } from '@weir/protocol';
import { startBroker, TEST_INTERNAL_TOKEN } from '@weir/test-broker';
import { afterEach, describe, expect, it } from 'vitest';
import { Broker } from '../src/broker';
import { brokerConfigSchema } from '../src/config/broker-config';
import { createBrokerMetrics } from '../src/http/metrics';
import { createLogger } from '../src/logger';
import { cleanEnv, weir } from './cli-runner';
import { internalSession, weirFailure } from './internal-fixtures';
import { temporaryDirectory } from './log-fixtures';
import { ADMIN, listTopicsAs, saslBrokerConfig } from './sasl-fixtures';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function saslBroker(dataDir?: string) {
  const running = await startBroker(saslBrokerConfig(), dataDir);
  cleanups.push(() => running.stop());
  return running;
}

async function scratchDirectory(): Promise<string> {
  const directory = await temporaryDirectory('weir-sasl-users-');
  cleanups.push(() => directory.cleanup());
  return directory.path;
}

describe('SASL users through InternalAdmin', { timeout: 60_000 }, () => {
  it('creates, lists, verifies, changes and deletes users; credentials survive a restart', async () => {
    const dataDir = await scratchDirectory();
    let running = await saslBroker(dataDir);
    let session = internalSession(running);
    await session.internal.upsertUser({
      username: 'bob',
      mechanism: 'SCRAM-SHA-256',
      password: 'bob-pass-1',
    });
    await session.internal.upsertUser({
      username: 'bob',
      mechanism: 'SCRAM-SHA-512',
      password: 'bob-pass-1',
      iterations: 4096,
    });
    const listed = await session.internal.listUsers();
    expect(listed).toEqual([
      {
        name: 'admin',
        credentials: [
          { mechanism: 'SCRAM-SHA-256', iterations: 8192 },
          { mechanism: 'SCRAM-SHA-512', iterations: 8192 },
        ],
        credentialFingerprint: expect.stringMatching(/^[\w-]{22}$/),
      },
      {
        name: 'bob',
        credentials: [
          { mechanism: 'SCRAM-SHA-256', iterations: 8192 },
          { mechanism: 'SCRAM-SHA-512', iterations: 4096 },
        ],
        credentialFingerprint: expect.stringMatching(/^[\w-]{22}$/),
      },
    ]);
    const bobFingerprint = listed[1]!.credentialFingerprint;
    expect(bobFingerprint).not.toBe(listed[0]!.credentialFingerprint);
    // Asked by name (v1), only the users that exist are answered.
    expect(await session.internal.listUsers(['bob', 'nobody'])).toEqual([listed[1]]);
    expect(await session.internal.verifyCredentials('bob', 'bob-pass-1')).toEqual({
      ok: true,
      principal: 'User:bob',
      credentialFingerprint: bobFingerprint,
    });
    expect(await session.internal.verifyCredentials('bob', 'nope', '192.0.2.1')).toEqual({ ok: false });
    expect(await session.internal.verifyCredentials('nobody', 'nope')).toEqual({ ok: false });
    const metadata = await readFile(join(dataDir, 'metadata.json'), 'utf8');
    expect(metadata).not.toContain('bob-pass-1');
    await session.close();
    await running.stop();

    running = await saslBroker(dataDir);
    session = internalSession(running);
    expect(
      await listTopicsAs(running, { mechanism: 'SCRAM-SHA-512', username: 'bob', password: 'bob-pass-1' }),
    ).toBeInstanceOf(Array);
    await session.internal.upsertUser({
      username: 'bob',
      mechanism: 'SCRAM-SHA-256',
      password: 'bob-pass-2',
    });
    expect(
      await listTopicsAs(running, { mechanism: 'PLAIN', username: 'bob', password: 'bob-pass-2' }),
    ).toBeInstanceOf(Array);
    const [changed] = await session.internal.listUsers(['bob']);
    expect(changed?.credentialFingerprint).not.toBe(bobFingerprint);
    await session.internal.deleteUser('bob', 'SCRAM-SHA-512');
    const [reduced] = await session.internal.listUsers(['bob']);
    expect(reduced?.credentials).toEqual([{ mechanism: 'SCRAM-SHA-256', iterations: 8192 }]);
    expect(reduced?.credentialFingerprint).not.toBe(changed?.credentialFingerprint);
    await session.internal.deleteUser('bob');
    const refused = await listTopicsAs(running, {
      mechanism: 'SCRAM-SHA-256',
      username: 'bob',
      password: 'bob-pass-2',
    });
    expect((refused as WeirError).code).toBe(ErrorCode.SASL_AUTHENTICATION_FAILED);
    expect((await weirFailure(session.internal.deleteUser('bob'))).code).toBe(ErrorCode.RESOURCE_NOT_FOUND);
    await session.close();
  });

  it('refuses too few iterations, an empty name and an unknown mechanism', async () => {
    const running = await saslBroker();
    const session = internalSession(running);
    cleanups.push(() => session.close());
    const upsert = (username: string, mechanism: string, iterations?: number) =>
      weirFailure(
        session.internal.upsertUser({
          username,
          mechanism: mechanism as 'SCRAM-SHA-256',
          password: 'pw-123456',
          ...(iterations === undefined ? {} : { iterations }),
        }),
      );
    expect((await upsert('carol', 'SCRAM-SHA-256', 4095)).code).toBe(ErrorCode.UNACCEPTABLE_CREDENTIAL);
    expect((await upsert('', 'SCRAM-SHA-256')).code).toBe(ErrorCode.UNACCEPTABLE_CREDENTIAL);
    expect((await upsert('carol', 'SCRAM-SHA-1')).code).toBe(ErrorCode.UNSUPPORTED_SASL_MECHANISM);
  });

  it('are not served on the client listener, even to an authenticated admin', async () => {
    const running = await saslBroker();
    const client = new Client({
      bootstrapServers: [running.bootstrap],
      sasl: { mechanism: 'SCRAM-SHA-256', ...ADMIN },
      retry: { maxAttempts: 1, initialBackoffMs: 10 },
    });
    cleanups.push(() => client.close());
    await expect(new InternalAdmin(client).listUsers()).rejects.toThrow();
  });
});

describe('weir user', { timeout: 60_000 }, () => {
  it('creates with a generated or piped password, lists, changes and deletes users', async () => {
    const running = await saslBroker();
    const internal = ['--internal', running.internalBootstrap, '--token', TEST_INTERNAL_TOKEN];

    const created = await weir(['user', 'create', 'dave', ...internal]);
    expect(created.stderr).toContain('Created user "dave"');
    expect(created.code).toBe(0);
    const generated = created.stdout.trim();
    expect(generated).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(
      await listTopicsAs(running, { mechanism: 'SCRAM-SHA-256', username: 'dave', password: generated }),
    ).toBeInstanceOf(Array);

    const again = await weir(['user', 'create', 'dave', ...internal]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('DUPLICATE_RESOURCE');

    const piped = await weir(
      [
        'user',
        'create',
        'erin',
        '--mechanism',
        'SCRAM-SHA-512',
        '--iterations',
        '4096',
        '--password-stdin',
        ...internal,
      ],
      { input: 'erin-secret\n' },
    );
    expect(piped.code).toBe(0);
    expect(piped.stdout).toBe('');

    const listed = await weir(['user', 'list', ...internal]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toBe(
      [
        'NAME   MECHANISMS',
        'admin  SCRAM-SHA-256(8192),SCRAM-SHA-512(8192)',
        'dave   SCRAM-SHA-256(8192),SCRAM-SHA-512(8192)',
        'erin   SCRAM-SHA-512(4096)',
        '',
      ].join('\n'),
    );

    const changed = await weir(
      ['user', 'passwd', 'erin', '--mechanism', 'SCRAM-SHA-512', '--password-stdin', ...internal],
      {
        input: 'erin-new-secret',
      },
    );
    expect(changed.code).toBe(0);
    expect(
      await listTopicsAs(running, { mechanism: 'PLAIN', username: 'erin', password: 'erin-new-secret' }),
    ).toBeInstanceOf(Array);
    expect((await weir(['user', 'passwd', 'nobody', ...internal])).code).toBe(1);

    expect((await weir(['user', 'delete', 'dave', ...internal])).code).toBe(0);
    const missing = await weir(['user', 'delete', 'dave', ...internal]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('RESOURCE_NOT_FOUND');
    expect((await weir(['user', 'create', 'x', '--mechanism', 'MD5', ...internal])).code).toBe(2);
  });
});

describe('the bootstrap admin', { timeout: 60_000 }, () => {
  it('is created at start, kept across restarts, and its password is never logged', async () => {
    const dataDir = await scratchDirectory();
    let text = '';
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        text += chunk.toString('utf8');
        done();
      },
    });
    const start = async () => {
      const config = brokerConfigSchema.parse({
        ...saslBrokerConfig(),
        dataDir,
        listeners: {
          client: { host: '127.0.0.1', port: 0, securityProtocol: 'SASL_PLAINTEXT' },
          internal: { host: '127.0.0.1', port: 0, token: TEST_INTERNAL_TOKEN },
        },
      });
      const broker = new Broker(config, {
        logger: createLogger({ level: 'trace', pretty: false, destination }),
        metrics: createBrokerMetrics(),
      });
      // Stopped before the directory goes even when the test fails half-way (stop is idempotent).
      cleanups.push(() => broker.stop());
      await broker.start();
      return broker;
    };
    let broker = await start();
    const running = { bootstrap: `127.0.0.1:${broker.clientPort}` } as Parameters<typeof listTopicsAs>[0];
    expect(await listTopicsAs(running, { mechanism: 'SCRAM-SHA-256', ...ADMIN })).toBeInstanceOf(Array);
    expect(
      await listTopicsAs(running, { mechanism: 'PLAIN', username: 'admin', password: 'wrong' }),
    ).toBeInstanceOf(WeirError);
    await broker.stop();
    broker = await start();
    await broker.stop();
    expect(text).toContain('bootstrap admin user created');
    expect(text.match(/bootstrap admin user/g)).toHaveLength(1);
    expect(text).not.toContain(ADMIN.password);
  });

  it('has its password masked in `weir config print` and in configuration errors', async () => {
    const printed = await weir(['config', 'print'], {
      env: cleanEnv({
        WEIR_SECURITY__BOOTSTRAP_ADMIN__USERNAME: 'admin',
        WEIR_SECURITY__BOOTSTRAP_ADMIN__PASSWORD: ADMIN.password,
        WEIR_LISTENERS__CLIENT__SECURITY_PROTOCOL: 'SASL_PLAINTEXT',
        WEIR_LISTENERS__CLIENT__SASL_MECHANISMS: 'SCRAM-SHA-512,PLAIN',
      }),
    });
    expect(printed.code).toBe(0);
    expect(printed.stdout).toContain('[redacted]');
    expect(printed.stdout).toMatch(/saslMechanisms:\n\s+- SCRAM-SHA-512\n\s+- PLAIN/);
    expect(printed.stdout + printed.stderr).not.toContain(ADMIN.password);

    const invalid = await weir([
      'config',
      'print',
      '--set',
      `security.bootstrapAdmin.password=${ADMIN.password}`,
    ]);
    expect(invalid.code).toBe(2);
    expect(invalid.stdout + invalid.stderr).not.toContain(ADMIN.password);
  });
});
