import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { TlsOptions } from '@weir/protocol';
import { certsDevCommand } from '../src/cli/certs-dev-command';
import { createCertificateAuthority, issueClientCertificate } from '../src/cli/certs-generate';
import type { BrokerConfigInput } from '../src/config/broker-config';
import type { BrokerMetrics } from '../src/http/metrics';
import { createLogger, type Logger } from '../src/logger';
import { temporaryDirectory } from './log-fixtures';

/** A client identity: certificate and key files. */
export interface ClientFiles {
  readonly cert: string;
  readonly key: string;
}

/** Certificates for TLS tests, made by `weir certs dev` into a temporary directory. */
export interface TlsFiles {
  readonly dir: string;
  readonly ca: string;
  readonly server: ClientFiles;
  /** CN=alice, from `certs dev --client alice`. */
  readonly alice: ClientFiles;
  /** CN=alice,OU=eng,O=Acme from the same CA, for the DN mapping. */
  readonly acme: ClientFiles;
  /** CN=mallory from a CA the broker does not trust. */
  readonly mallory: ClientFiles;
  /** The untrusted CA, for a client that must refuse the broker. */
  readonly otherCa: string;
  cleanup(): Promise<void>;
}

export async function makeTlsFiles(): Promise<TlsFiles> {
  const scratch = await temporaryDirectory('weir-tls-');
  const dir = scratch.path;
  const out = sink();
  const status = await certsDevCommand(
    { out: dir, hosts: ['127.0.0.1', 'localhost'], clients: ['alice'], force: false },
    { stdout: out.stream, stderr: out.stream },
  );
  if (status !== 0) throw new Error(`certs dev failed: ${out.text()}`);
  const ca = {
    certPem: await readFile(join(dir, 'ca.pem'), 'utf8'),
    keyPem: await readFile(join(dir, 'ca-key.pem'), 'utf8'),
    commonName: 'Weir development CA',
  };
  const acme = issueClientCertificate(ca, {
    commonName: 'alice',
    organizationalUnit: 'eng',
    organization: 'Acme',
  });
  const otherCa = createCertificateAuthority('Untrusted CA');
  const mallory = issueClientCertificate(otherCa, { commonName: 'mallory' });
  const write = async (name: string, text: string) => {
    await writeFile(join(dir, name), text, { mode: 0o600 });
    return join(dir, name);
  };
  return {
    dir,
    ca: join(dir, 'ca.pem'),
    server: { cert: join(dir, 'server.pem'), key: join(dir, 'server-key.pem') },
    alice: { cert: join(dir, 'alice.pem'), key: join(dir, 'alice-key.pem') },
    acme: { cert: await write('acme.pem', acme.certPem), key: await write('acme-key.pem', acme.keyPem) },
    mallory: {
      cert: await write('mallory.pem', mallory.certPem),
      key: await write('mallory-key.pem', mallory.keyPem),
    },
    otherCa: await write('other-ca.pem', otherCa.certPem),
    cleanup: scratch.cleanup,
  };
}

/** Broker overrides for a client listener with TLS. */
export function tlsListener(
  files: TlsFiles,
  tls: {
    clientAuth?: 'none' | 'requested' | 'required';
    principalMapping?: 'dn' | 'cn';
    handshakeTimeoutMs?: number;
  } = {},
  securityProtocol: 'SSL' | 'SASL_SSL' = 'SSL',
): BrokerConfigInput {
  return {
    listeners: {
      client: {
        securityProtocol,
        tls: { certFile: files.server.cert, keyFile: files.server.key, caFile: files.ca, ...tls },
      },
    },
  };
}

/** The SDK's TLS options: trust the test CA, optionally present a client certificate. */
export async function sdkTls(files: TlsFiles, client?: ClientFiles, ca = files.ca): Promise<TlsOptions> {
  return {
    ca: await readFile(ca, 'utf8'),
    ...(client === undefined
      ? {}
      : { cert: await readFile(client.cert, 'utf8'), key: await readFile(client.key, 'utf8') }),
  };
}

/** A debug logger whose JSON lines a test can read. */
export function capturedLogger(): { logger: Logger; lines: () => Record<string, unknown>[] } {
  const out = sink();
  return {
    logger: createLogger({ level: 'debug', pretty: false, destination: out.stream }),
    lines: () =>
      out
        .text()
        .split('\n')
        .filter((line) => line.length > 0)
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

/** The count of refused connections with `reason` (the metric label). */
export async function rejectedCount(metrics: BrokerMetrics, reason: string): Promise<number> {
  const { values } = await metrics.connectionsRejectedTotal.get();
  return values
    .filter((value) => value.labels.reason === reason)
    .reduce((sum, value) => sum + value.value, 0);
}

/** Waits until `check` holds, polling; for effects that land right after a socket closes. */
export async function eventually(check: () => Promise<boolean> | boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function sink(): { stream: Writable; text: () => string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(Buffer.from(chunk));
      done();
    },
  });
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}
