import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { type RunningBroker, startBroker } from '@weir/test-broker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ClientFiles,
  capturedLogger,
  eventually,
  makeTlsFiles,
  rejectedCount,
  type TlsFiles,
  tlsListener,
} from './tls-fixtures';

const run = promisify(execFile);

describe('kcat (librdkafka 2.0) over SSL', { timeout: 60_000 }, () => {
  let files: TlsFiles;
  let running: RunningBroker;
  const log = capturedLogger();

  /** kcat with `-X security.protocol=ssl`, trusting the test CA, optionally with a client certificate. */
  async function kcat(args: string[], options: { client?: ClientFiles; input?: string } = {}) {
    const identity = options.client
      ? [
          '-X',
          `ssl.certificate.location=${options.client.cert}`,
          '-X',
          `ssl.key.location=${options.client.key}`,
        ]
      : [];
    const child = run(
      'kcat',
      [
        '-b',
        running.bootstrap,
        '-X',
        'broker.address.family=v4',
        '-X',
        'security.protocol=ssl',
        '-X',
        `ssl.ca.location=${files.ca}`,
        ...identity,
        ...args,
      ],
      { timeout: 30_000 },
    );
    child.child.stdin!.end(options.input ?? '');
    return (await child).stdout;
  }

  beforeAll(async () => {
    files = await makeTlsFiles();
    running = await startBroker(
      { ...tlsListener(files, { clientAuth: 'requested' }), topics: { autoCreateEnable: true } },
      undefined,
      { logger: log.logger },
    );
  });
  afterAll(async () => {
    await running?.dispose();
    await files?.cleanup();
  });

  it('lists, produces and consumes, verifying the broker certificate against the CA', async () => {
    const lines = Array.from({ length: 100 }, (_, index) => `line-${index}`);
    await kcat(['-P', '-t', 'tls-kcat', '-p', '0'], { input: `${lines.join('\n')}\n` });
    const consumed = await kcat(['-C', '-t', 'tls-kcat', '-p', '0', '-o', 'beginning', '-e']);
    expect(consumed.trim().split('\n')).toEqual(lines);
    const listing = await kcat(['-L']);
    expect(listing).toContain(`ssl://127.0.0.1:${running.port}`);
    expect(listing).toContain('topic "tls-kcat"');
  });

  it('presents a client certificate whose subject becomes the principal', async () => {
    await kcat(['-L'], { client: files.alice });
    const principals = log
      .lines()
      .filter((line) => line.msg === 'connection opened')
      .map((line) => line.principal);
    expect(principals).toContain('User:CN=alice');
  });

  it('fails with a certificate from an untrusted CA, which the broker counts', async () => {
    await expect(kcat(['-L', '-m', '3'], { client: files.mallory })).rejects.toThrow();
    await eventually(
      async () => (await rejectedCount(running.metrics, 'tls_client_certificate_refused')) > 0,
    );
    expect(await kcat(['-L'])).toContain('topic "tls-kcat"');
  });
});
