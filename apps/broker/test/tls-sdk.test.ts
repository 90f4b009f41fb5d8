import { connect } from 'node:net';
import { Admin, Client, Consumer, Producer, type TlsOptions, WeirError } from '@weir/protocol';
import { type RunningBroker, startBroker } from '@weir/test-broker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  capturedLogger,
  eventually,
  makeTlsFiles,
  rejectedCount,
  sdkTls,
  type TlsFiles,
  tlsListener,
} from './tls-fixtures';

let files: TlsFiles;

beforeAll(async () => {
  files = await makeTlsFiles();
});
afterAll(async () => {
  await files?.cleanup();
});

function sdkClient(running: RunningBroker, tls: TlsOptions | undefined): Client {
  return new Client({
    bootstrapServers: [running.bootstrap],
    clientId: 'tls-test',
    connectTimeoutMs: 5000,
    retry: { maxAttempts: 1, initialBackoffMs: 10 },
    ...(tls === undefined ? {} : { tls }),
  });
}

/** Lists topics with a fresh client; the error when the connection is refused. */
async function listTopicsWith(
  running: RunningBroker,
  tls: TlsOptions | undefined,
): Promise<string[] | Error> {
  const client = sdkClient(running, tls);
  try {
    return await new Admin(client).listTopics();
  } catch (error) {
    return error as Error;
  } finally {
    await client.close();
  }
}

/** The principals of the connections the broker logged as opened, in order. */
function openedPrincipals(lines: () => Record<string, unknown>[]): string[] {
  return lines()
    .filter((line) => line.msg === 'connection opened' && line.listener === 'client')
    .map((line) => String(line.principal));
}

describe('SSL listener with client certificates required', { timeout: 60_000 }, () => {
  let running: RunningBroker;
  const log = capturedLogger();

  beforeAll(async () => {
    running = await startBroker(
      {
        ...tlsListener(files, { clientAuth: 'required', handshakeTimeoutMs: 300 }),
        topics: { autoCreateEnable: true },
      },
      undefined,
      { logger: log.logger },
    );
  });
  afterAll(async () => {
    await running?.dispose();
  });

  it('produces and consumes with the SDK over mutual TLS', async () => {
    const client = sdkClient(running, await sdkTls(files, files.alice));
    try {
      await new Admin(client).createTopics([{ name: 'tls-sdk', partitions: 1 }]);
      const producer = new Producer(client);
      const messages = Array.from({ length: 20 }, (_, index) => ({ key: `k${index}`, value: `v${index}` }));
      await producer.send({ topic: 'tls-sdk', messages });
      await producer.close();
      const consumer = new Consumer(client);
      consumer.assign([{ topic: 'tls-sdk', partition: 0, offset: 0 }]);
      const values: string[] = [];
      while (values.length < 20) {
        for (const record of await consumer.poll({ maxWaitMs: 2000 })) values.push(String(record.value));
      }
      await consumer.close();
      expect(values).toEqual(messages.map((message) => message.value));
    } finally {
      await client.close();
    }
  });

  it('sets the principal from the certificate subject DN before any request', async () => {
    expect(await listTopicsWith(running, await sdkTls(files, files.acme))).toBeInstanceOf(Array);
    expect(openedPrincipals(log.lines)).toContain('User:CN=alice,OU=eng,O=Acme');
    expect(openedPrincipals(log.lines)).toContain('User:CN=alice');
    // The principal is in the log; the key never is.
    expect(JSON.stringify(log.lines())).not.toContain('PRIVATE KEY');
  });

  it('refuses a certificate from an untrusted CA and keeps serving the other connections', async () => {
    const kept = sdkClient(running, await sdkTls(files, files.alice));
    const admin = new Admin(kept);
    try {
      await admin.listTopics();
      const before = await rejectedCount(running.metrics, 'tls_client_certificate_refused');
      const refused = await listTopicsWith(running, await sdkTls(files, files.mallory));
      expect(refused).toBeInstanceOf(WeirError);
      await eventually(
        async () => (await rejectedCount(running.metrics, 'tls_client_certificate_refused')) === before + 1,
      );
      const line = log
        .lines()
        .find(
          (entry) => entry.msg === 'connection refused' && entry.reason === 'tls client certificate refused',
        );
      expect(String(line?.detail)).toMatch(/^untrusted client certificate/);
      // The connection opened before the refusal still works, and new ones are accepted.
      expect(await admin.listTopics()).toContain('tls-sdk');
      expect(await listTopicsWith(running, await sdkTls(files, files.alice))).toContain('tls-sdk');
      expect(openedPrincipals(log.lines)).not.toContain('User:CN=mallory');
    } finally {
      await kept.close();
    }
  });

  it('refuses a client without a certificate', async () => {
    const before = await rejectedCount(running.metrics, 'tls_client_certificate_refused');
    expect(await listTopicsWith(running, await sdkTls(files))).toBeInstanceOf(WeirError);
    await eventually(
      async () => (await rejectedCount(running.metrics, 'tls_client_certificate_refused')) === before + 1,
    );
  });

  it('refuses a plaintext client on the TLS port cleanly', async () => {
    const before = await rejectedCount(running.metrics, 'plaintext_on_tls_port');
    const refused = await listTopicsWith(running, undefined);
    expect(refused).toBeInstanceOf(WeirError);
    await eventually(
      async () => (await rejectedCount(running.metrics, 'plaintext_on_tls_port')) === before + 1,
    );
    expect(await listTopicsWith(running, await sdkTls(files, files.alice))).toContain('tls-sdk');
  });

  it('closes a connection that never finishes its handshake', async () => {
    const before = await rejectedCount(running.metrics, 'tls_handshake_timeout');
    const socket = connect(running.port, '127.0.0.1');
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.on('error', () => {});
    await closed;
    await eventually(
      async () => (await rejectedCount(running.metrics, 'tls_handshake_timeout')) === before + 1,
    );
  });

  it('lets the SDK refuse a broker whose certificate it does not trust', async () => {
    const refused = await listTopicsWith(running, await sdkTls(files, files.alice, files.otherCa));
    expect(refused).toBeInstanceOf(WeirError);
    expect((refused as Error).message).toMatch(/certificate/i);
  });
});

describe('SSL listener with client certificates requested, principals by CN', { timeout: 60_000 }, () => {
  let running: RunningBroker;
  const log = capturedLogger();

  beforeAll(async () => {
    running = await startBroker(
      tlsListener(files, { clientAuth: 'requested', principalMapping: 'cn' }),
      undefined,
      {
        logger: log.logger,
      },
    );
  });
  afterAll(async () => {
    await running?.dispose();
  });

  it('serves a client without a certificate as ANONYMOUS and one with a certificate as its CN', async () => {
    expect(await listTopicsWith(running, await sdkTls(files))).toBeInstanceOf(Array);
    expect(await listTopicsWith(running, await sdkTls(files, files.acme))).toBeInstanceOf(Array);
    expect(openedPrincipals(log.lines)).toEqual(expect.arrayContaining(['User:ANONYMOUS', 'User:alice']));
  });

  it('still refuses a certificate it cannot verify', async () => {
    expect(await listTopicsWith(running, await sdkTls(files, files.mallory))).toBeInstanceOf(WeirError);
    await eventually(
      async () => (await rejectedCount(running.metrics, 'tls_client_certificate_refused')) === 1,
    );
  });
});

describe('SASL_SSL listener with a client certificate', { timeout: 60_000 }, () => {
  let running: RunningBroker;
  const log = capturedLogger();

  beforeAll(async () => {
    running = await startBroker(tlsListener(files, { clientAuth: 'requested' }, 'SASL_SSL'), undefined, {
      logger: log.logger,
    });
  });
  afterAll(async () => {
    await running?.dispose();
  });

  it('does not take the principal from the certificate: SASL decides it', async () => {
    // Without SASL credentials the connection is refused after ApiVersions; what matters here is
    // the principal the TLS layer gave it.
    await listTopicsWith(running, await sdkTls(files, files.acme));
    await eventually(() => openedPrincipals(log.lines).length > 0);
    expect(new Set(openedPrincipals(log.lines))).toEqual(new Set(['User:ANONYMOUS']));
  });
});

describe('internal listener over TLS', { timeout: 60_000 }, () => {
  let running: RunningBroker;

  beforeAll(async () => {
    running = await startBroker({
      listeners: { internal: { tls: { certFile: files.server.cert, keyFile: files.server.key } } },
    });
  });
  afterAll(async () => {
    await running?.dispose();
  });

  it('authenticates the token inside TLS, and refuses a plaintext client', async () => {
    const connect = async (tls: TlsOptions | undefined) => {
      const client = new Client({
        bootstrapServers: [running.internalBootstrap],
        clientId: 'internal-tls-test',
        sasl: { mechanism: 'WEIR-TOKEN', token: running.internalToken },
        retry: { maxAttempts: 1, initialBackoffMs: 10 },
        ...(tls === undefined ? {} : { tls }),
      });
      try {
        return await new Admin(client).listTopics();
      } catch (error) {
        return error as Error;
      } finally {
        await client.close();
      }
    };
    expect(await connect(await sdkTls(files))).toBeInstanceOf(Array);
    expect(await connect(undefined)).toBeInstanceOf(WeirError);
    // The client listener stays plaintext.
    expect(await listTopicsWith(running, undefined)).toBeInstanceOf(Array);
  });
});

describe('SSL listener at its connection limit', { timeout: 60_000 }, () => {
  let running: RunningBroker;

  beforeAll(async () => {
    running = await startBroker({ ...tlsListener(files), limits: { maxConnections: 1 } });
  });
  afterAll(async () => {
    await running?.dispose();
  });

  it('refuses connections beyond maxConnections, handshakes included', async () => {
    const idle = connect(running.port, '127.0.0.1');
    idle.on('error', () => {});
    await new Promise<void>((resolve) => idle.once('connect', () => resolve()));
    expect(await listTopicsWith(running, await sdkTls(files))).toBeInstanceOf(WeirError);
    await eventually(async () => (await rejectedCount(running.metrics, 'max_connections_reached')) > 0);
    idle.destroy();
    await eventually(async () => Array.isArray(await listTopicsWith(running, await sdkTls(files))));
  });
});
