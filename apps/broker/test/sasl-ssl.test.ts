import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type RunningBroker, startBroker } from '@weir/test-broker';
import { Kafka, logLevel } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCertificateAuthority, issueServerCertificate } from '../src/cli/certs-generate';
import { internalSession } from './internal-fixtures';
import { temporaryDirectory } from './log-fixtures';
import { kcatSasl } from './sasl-fixtures';

const ALICE = { username: 'alice', password: 'alice-ssl-password-5e2a' } as const;

describe('SASL_SSL client listener', { timeout: 60_000 }, () => {
  let running: RunningBroker;
  let caFile: string;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    const scratch = await temporaryDirectory('weir-sasl-ssl-');
    cleanup = scratch.cleanup;
    const ca = createCertificateAuthority();
    const server = issueServerCertificate(ca, ['127.0.0.1', 'localhost']);
    caFile = join(scratch.path, 'ca.pem');
    await writeFile(caFile, ca.certPem);
    await writeFile(join(scratch.path, 'server.pem'), server.certPem);
    await writeFile(join(scratch.path, 'server.key'), server.keyPem, { mode: 0o600 });
    running = await startBroker({
      listeners: {
        client: {
          securityProtocol: 'SASL_SSL',
          tls: { certFile: join(scratch.path, 'server.pem'), keyFile: join(scratch.path, 'server.key') },
        },
      },
      security: { authFailureDelayMs: 0 },
    });
    const session = internalSession(running);
    try {
      for (const mechanism of ['SCRAM-SHA-256', 'SCRAM-SHA-512'] as const) {
        await session.internal.upsertUser({ ...ALICE, mechanism });
      }
    } finally {
      await session.close();
    }
  });
  afterAll(async () => {
    await running?.dispose();
    await cleanup?.();
  });

  const tls = () => ['-X', 'security.protocol=SASL_SSL', '-X', `ssl.ca.location=${caFile}`];

  it('serves kcat with SCRAM-SHA-256 and refuses a wrong password', async () => {
    const scram = { mechanism: 'SCRAM-SHA-256', ...ALICE };
    const listed = await kcatSasl(running, scram, ['-L'], tls());
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(`broker 0 at 127.0.0.1:${running.port}`);
    const refused = await kcatSasl(running, { ...scram, password: 'wrong' }, ['-L', '-m', '5'], tls());
    expect(refused.code).not.toBe(0);
    expect((await kcatSasl(running, scram, ['-L'], tls())).code).toBe(0);
  });

  it('serves kafkajs with SCRAM-SHA-512 and with PLAIN', async () => {
    const ca = await readFile(caFile, 'utf8');
    for (const sasl of [
      { mechanism: 'scram-sha-512' as const, ...ALICE },
      { mechanism: 'plain' as const, ...ALICE },
    ]) {
      const kafka = new Kafka({
        clientId: 'sasl-ssl-kafkajs',
        brokers: [running.bootstrap],
        logLevel: logLevel.NOTHING,
        ssl: { ca: [ca] },
        sasl,
        retry: { retries: 0 },
      });
      const producer = kafka.producer();
      await producer.connect();
      try {
        const [sent] = await producer.send({
          topic: `ssl-${sasl.mechanism}`,
          messages: [{ value: 'hello' }],
        });
        expect(sent!.errorCode).toBe(0);
      } finally {
        await producer.disconnect();
      }
    }
  });
});
