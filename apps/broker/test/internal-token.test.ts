import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { Admin, Client, ErrorCode, Metadata, WeirError } from '@weir/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { Broker } from '../src/broker';
import { brokerConfigSchema } from '../src/config/broker-config';
import { createBrokerMetrics } from '../src/http/metrics';
import { createLogger } from '../src/logger';
import { INTERNAL_TOKEN_FILE_NAME } from '../src/server/auth/internal-token-file';
import { cleanEnv, weir } from './cli-runner';
import { temporaryDirectory } from './log-fixtures';
import { RawConnection } from './raw-socket';

const CONFIGURED_TOKEN = 'configured-internal-token-7f3a9c';
const WRONG_TOKEN = 'wrong-internal-token-5b1e2d';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A broker on ephemeral ports whose every log line (trace level) is kept as text. */
async function loggedBroker(
  dataDir: string,
  internal: { token?: string },
): Promise<{ broker: Broker; logs: () => string; stop: () => Promise<void> }> {
  let text = '';
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString('utf8');
      done();
    },
  });
  const config = brokerConfigSchema.parse({
    dataDir,
    listeners: {
      client: { host: '127.0.0.1', port: 0 },
      internal: { host: '127.0.0.1', port: 0, ...internal },
    },
  });
  const broker = new Broker(config, {
    logger: createLogger({ level: 'trace', pretty: false, destination }),
    metrics: createBrokerMetrics(),
  });
  await broker.start();
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await broker.stop();
  };
  cleanups.push(stop);
  return { broker, logs: () => text, stop };
}

async function dataDirectory(): Promise<string> {
  const directory = await temporaryDirectory('weir-internal-token-');
  cleanups.push(() => directory.cleanup());
  return directory.path;
}

/** Authenticates with `token` through the SDK and lists topics; the error if that fails. */
async function listTopicsWith(broker: Broker, token: string): Promise<string[] | WeirError> {
  const client = new Client({
    bootstrapServers: [`127.0.0.1:${broker.internalPort}`],
    sasl: { mechanism: 'WEIR-TOKEN', token },
    retry: { maxAttempts: 2, initialBackoffMs: 10 },
  });
  try {
    return await new Admin(client).listTopics();
  } catch (error) {
    if (error instanceof WeirError) return error;
    throw error;
  } finally {
    await client.close();
  }
}

describe('the internal listener token', () => {
  it('is generated on first start into a 0600 file and reused after a restart', async () => {
    const dataDir = await dataDirectory();
    const first = await loggedBroker(dataDir, {});
    const path = join(dataDir, INTERNAL_TOKEN_FILE_NAME);
    const token = first.broker.internalToken!;
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await readFile(path, 'utf8')).trim()).toBe(token);
    expect(await listTopicsWith(first.broker, token)).toEqual(expect.any(Array));
    expect(first.logs()).toContain('internal listener token generated');
    expect(first.logs()).toContain(path);
    await first.stop();

    const second = await loggedBroker(dataDir, {});
    expect(second.broker.internalToken).toBe(token);
    expect(second.logs()).toContain('internal listener token read');
    expect(await listTopicsWith(second.broker, token)).toEqual(expect.any(Array));
    for (const logs of [first.logs(), second.logs()]) expect(logs).not.toContain(token);
  });

  it('prefers the configured token and writes no file', async () => {
    const dataDir = await dataDirectory();
    const { broker } = await loggedBroker(dataDir, { token: CONFIGURED_TOKEN });
    expect(broker.internalToken).toBe(CONFIGURED_TOKEN);
    await expect(stat(join(dataDir, INTERNAL_TOKEN_FILE_NAME))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('never appears in the logs, whether authentication succeeds, fails or is skipped', async () => {
    const dataDir = await dataDirectory();
    const { broker, logs, stop } = await loggedBroker(dataDir, { token: CONFIGURED_TOKEN });
    expect(await listTopicsWith(broker, CONFIGURED_TOKEN)).toEqual(expect.any(Array));
    const refused = await listTopicsWith(broker, WRONG_TOKEN);
    expect(refused).toBeInstanceOf(WeirError);
    expect((refused as WeirError).code).toBe(ErrorCode.SASL_AUTHENTICATION_FAILED);
    const intruder = await RawConnection.open(broker.internalPort!);
    await intruder.send(Metadata, 6, {
      topics: null,
      allowAutoTopicCreation: false,
      includeClusterAuthorizedOperations: false,
      includeTopicAuthorizedOperations: false,
    });
    await intruder.closed();
    await stop();

    const text = logs();
    // The refusals are logged (so the check below looks at lines that exist), without the tokens.
    expect(text).toContain('authentication refused');
    expect(text).toContain('Metadata before authentication');
    expect(text).not.toContain(CONFIGURED_TOKEN);
    expect(text).not.toContain(WRONG_TOKEN);
    expect(text).not.toContain(Buffer.from(CONFIGURED_TOKEN).toString('base64'));
  });

  it('is masked in `weir config print`, from the environment and from a flag', async () => {
    const fromEnv = await weir(['config', 'print'], {
      env: cleanEnv({ WEIR_LISTENERS__INTERNAL__TOKEN: CONFIGURED_TOKEN }),
    });
    expect(fromEnv.code).toBe(0);
    expect(fromEnv.stdout).toMatch(/internal:\n(?: {4}.*\n)*? {4}token: "?\[redacted\]"?\n/);
    expect(fromEnv.stdout + fromEnv.stderr).not.toContain(CONFIGURED_TOKEN);

    const fromFlag = await weir(['config', 'print', '--set', `listeners.internal.token=${CONFIGURED_TOKEN}`]);
    expect(fromFlag.code).toBe(0);
    expect(fromFlag.stdout).toContain('[redacted]');
    expect(fromFlag.stdout + fromFlag.stderr).not.toContain(CONFIGURED_TOKEN);
  });
});
