import { type RunningBroker, startBroker } from '@weir/test-broker';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanEnv, weir } from './cli-runner';
import { ADMIN } from './sasl-fixtures';
import { makeTlsFiles, type TlsFiles, tlsListener } from './tls-fixtures';

// The README's secure profile, through the `weir` CLI: SASL_SSL with SCRAM, no access without an
// ACL, the admin grants a user a topic, and the user produces and consumes it.

// Each CLI command starts a process through tsx, which takes seconds on a busy machine.
vi.setConfig({ testTimeout: 60_000 });

describe('weir client commands on a SASL_SSL listener', () => {
  let files: TlsFiles;
  let running: RunningBroker;

  beforeAll(async () => {
    files = await makeTlsFiles();
    const listener = tlsListener(files, {}, 'SASL_SSL');
    running = await startBroker({
      ...listener,
      listeners: {
        client: { ...listener.listeners!.client!, saslMechanisms: ['SCRAM-SHA-512', 'SCRAM-SHA-256'] },
      },
      security: {
        bootstrapAdmin: { ...ADMIN },
        superUsers: [`User:${ADMIN.username}`],
        allowEveryoneIfNoAclFound: false,
        authFailureDelayMs: 0,
      },
    });
  });
  afterAll(async () => {
    await running?.dispose();
    await files?.cleanup();
  });

  /** Runs `weir` as `username` over SASL_SSL, trusting the test CA. */
  function weirAs(username: string, password: string, args: string[], input?: string) {
    return weir(
      [
        ...args,
        '--bootstrap-server',
        running.bootstrap,
        '--security-protocol',
        'SASL_SSL',
        '--sasl-mechanism',
        'SCRAM-SHA-256',
        '--sasl-username',
        username,
        '--tls-ca',
        files.ca,
      ],
      { env: cleanEnv({ WEIR_CLIENT_SASL_PASSWORD: password }), ...(input === undefined ? {} : { input }) },
    );
  }

  it('lets a user in only as far as its ACLs allow', async () => {
    const admin = (args: string[], input?: string) => weirAs(ADMIN.username, ADMIN.password, args, input);
    expect((await admin(['topic', 'create', 'orders', '--partitions', '2'])).code).toBe(0);
    await running.broker.services.users.upsertUser({
      username: 'alice',
      mechanism: 'SCRAM-SHA-256',
      password: 'alice-password-1',
      iterations: 4096,
    });
    const alice = (args: string[], input?: string) => weirAs('alice', 'alice-password-1', args, input);

    // Authenticated, but no ACL names her: the topic is not even visible.
    const before = await alice(['produce', 'orders'], 'first\n');
    expect(before.code).toBe(1);
    expect(before.stderr).toMatch(/TOPIC_AUTHORIZATION_FAILED|UNKNOWN_TOPIC_OR_PARTITION/);

    for (const operation of ['WRITE', 'READ']) {
      const granted = await admin([
        'acl',
        'create',
        '--allow',
        '--principal',
        'User:alice',
        '--operation',
        operation,
        '--topic',
        'orders',
      ]);
      expect(granted.code).toBe(0);
    }
    expect((await alice(['produce', 'orders', '--partition', '0'], 'hello\n')).code).toBe(0);
    const consumed = await alice([
      'consume',
      'orders',
      '--from',
      'beginning',
      '--partition',
      '0',
      '--exit-at-end',
    ]);
    expect(consumed.code).toBe(0);
    expect(consumed.stdout.trim()).toBe('hello');

    // Deleting the topic needs DELETE, which she was not given; the topic stays.
    const refused = await alice(['topic', 'delete', 'orders', '--yes']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('TOPIC_AUTHORIZATION_FAILED');
    expect(
      running.broker.services.topicDescriptions
        .listTopics({ includeInternal: false })
        .map((topic) => topic.name),
    ).toContain('orders');
  });

  it('refuses a wrong password, and names what is missing', async () => {
    const wrong = await weirAs('alice', 'not-her-password', ['topic', 'list']);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('SASL_AUTHENTICATION_FAILED');
    expect(wrong.stderr).not.toContain('not-her-password');

    const noPassword = await weir([
      'topic',
      'list',
      '--bootstrap-server',
      running.bootstrap,
      '--security-protocol',
      'SASL_SSL',
      '--sasl-username',
      'alice',
    ]);
    expect(noPassword.code).toBe(2);
    expect(noPassword.stderr).toContain('WEIR_CLIENT_SASL_PASSWORD');
  });
});
