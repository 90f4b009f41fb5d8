import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Admin, Client, ErrorCode, InternalAdmin, type TlsOptions } from '@weir/protocol';
import { type RunningBroker, startBroker, TEST_INTERNAL_TOKEN } from '@weir/test-broker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueClientCertificate } from '../src/cli/certs-generate';
import { grant, PRINCIPAL_OF, seedWorld } from './acl-fixtures';
import { expectExitCode, weir } from './cli-runner';
import { weirFailure } from './internal-fixtures';
import { recordingScheduler } from './sasl-fixtures';
import { type ClientFiles, makeTlsFiles, sdkTls, type TlsFiles } from './tls-fixtures';

/** The console's certificate subject, trusted by the broker below (DN mapping). */
const CONSOLE_PRINCIPAL = 'User:CN=weir-console';
const FAILURE_DELAY_MS = 1000;

let files: TlsFiles;
let consoleFiles: ClientFiles;
let running: RunningBroker;
/** The delays failed authentications asked for, in order. */
let delays: number[];
const clients: Client[] = [];

/** The internal listener over TLS, asking for client certificates and trusting the console's. */
function mtlsInternalListener(trustedCertificatePrincipals: string[], principalMapping: 'dn' | 'cn' = 'dn') {
  return {
    tls: {
      certFile: files.server.cert,
      keyFile: files.server.key,
      caFile: files.ca,
      clientAuth: 'requested' as const,
      principalMapping,
    },
    trustedCertificatePrincipals,
  };
}

beforeAll(async () => {
  files = await makeTlsFiles();
  // `weir certs dev --client weir-console` makes the same certificate; issued here from the same CA
  // so the shared fixture stays as it is.
  const ca = {
    certPem: await readFile(files.ca, 'utf8'),
    keyPem: await readFile(join(files.dir, 'ca-key.pem'), 'utf8'),
    commonName: 'Weir development CA',
  };
  const issued = issueClientCertificate(ca, { commonName: 'weir-console' });
  consoleFiles = { cert: join(files.dir, 'weir-console.pem'), key: join(files.dir, 'weir-console-key.pem') };
  await writeFile(consoleFiles.cert, issued.certPem);
  await writeFile(consoleFiles.key, issued.keyPem, { mode: 0o600 });

  const recording = recordingScheduler();
  delays = recording.delays;
  running = await startBroker(
    {
      listeners: { internal: mtlsInternalListener([CONSOLE_PRINCIPAL]) },
      security: {
        superUsers: ['User:admin'],
        allowEveryoneIfNoAclFound: false,
        authFailureDelayMs: FAILURE_DELAY_MS,
      },
    },
    undefined,
    // Failed attempts are answered at once but the delays they asked for are recorded.
    { authScheduler: recording.scheduler },
  );
  await seedWorld(running.broker);
  await running.broker.services.acls.createAcls([{ binding: grant('TOPIC', 'data', 'READ') }]);
}, 60_000);

afterAll(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await running?.dispose();
  await files?.cleanup();
});

/** A client of the internal listener over TLS, with `certificate` (if any) and WEIR-TOKEN `token`. */
async function internalClient(
  options: { certificate?: ClientFiles; token: string; actAs?: string },
  broker = running,
): Promise<Client> {
  const tls: TlsOptions = await sdkTls(files, options.certificate);
  const client = new Client({
    bootstrapServers: [broker.internalBootstrap],
    clientId: 'internal-mtls-test',
    tls,
    sasl: {
      mechanism: 'WEIR-TOKEN',
      token: options.token,
      ...(options.actAs === undefined ? {} : { actAs: options.actAs }),
    },
    retry: { maxAttempts: 1, initialBackoffMs: 10 },
  });
  clients.push(client);
  return client;
}

async function weirTokenOutcomes(): Promise<{ success: number; failure: number }> {
  const { values } = await running.metrics.authenticationsTotal.get();
  const count = (result: string) =>
    values
      .filter((value) => value.labels.mechanism === 'WEIR-TOKEN' && value.labels.result === result)
      .reduce((sum, value) => sum + value.value, 0);
  return { success: count('success'), failure: count('failure') };
}

/** Expects the connection to be refused as a wrong token is: answered, counted and delayed. */
async function expectRefused(client: Client): Promise<void> {
  const before = await weirTokenOutcomes();
  const delaysBefore = delays.length;
  const failure = await weirFailure(new InternalAdmin(client).describeBroker());
  expect(failure.code).toBe(ErrorCode.SASL_AUTHENTICATION_FAILED);
  expect((await weirTokenOutcomes()).failure).toBe(before.failure + 1);
  expect(delays.length).toBe(delaysBefore + 1);
}

describe('the internal listener with trusted client certificates (mutual TLS)', () => {
  it('authenticates a trusted certificate with an empty token as the internal super user', async () => {
    const client = await internalClient({ certificate: consoleFiles, token: '' });
    const internal = new InternalAdmin(client);
    const overview = await internal.describeBroker();
    expect(overview.nodeId).toBe(0);
    // Allowed only to a super user: no ACL grants anything here and the default is to deny.
    expect((await internal.listUsers()).map((user) => user.name).sort()).toEqual(['granted', 'nobody']);
    await new Admin(client).deleteTopics(['victim']);
    expect(
      running.broker.services.topicDescriptions.listTopics({ includeInternal: false }).map((t) => t.name),
    ).not.toContain('victim');
  });

  it("acts for a user (authzid with an empty token) under that user's ACLs", async () => {
    const client = await internalClient({
      certificate: consoleFiles,
      token: '',
      actAs: PRINCIPAL_OF.granted,
    });
    const internal = new InternalAdmin(client);
    const summaries = await internal.listTopicSummaries({ limit: 100 });
    expect(summaries.topics.map((topic) => topic.name)).toEqual(['data']);
    expect((await weirFailure(internal.listUsers())).code).toBe(ErrorCode.CLUSTER_AUTHORIZATION_FAILED);
    expect((await weirFailure(new Admin(client).deleteTopics(['grow']))).code).toBe(
      ErrorCode.TOPIC_AUTHORIZATION_FAILED,
    );
  });

  it('refuses acting as the internal principal with a trusted certificate', async () => {
    const client = await internalClient({
      certificate: consoleFiles,
      token: '',
      actAs: 'User:weir-internal',
    });
    await expectRefused(client);
  });

  it('refuses an empty token with a certificate from the right CA whose principal is not trusted', async () => {
    // CN=alice,OU=eng,O=Acme verifies against the CA, so TLS accepts it; WEIR-TOKEN does not.
    await expectRefused(await internalClient({ certificate: files.acme, token: '' }));
  });

  it('refuses an empty token without a client certificate', async () => {
    await expectRefused(await internalClient({ token: '' }));
    await expectRefused(await internalClient({ token: '', actAs: PRINCIPAL_OF.granted }));
  });

  it('refuses a wrong token even with a trusted certificate', async () => {
    await expectRefused(await internalClient({ certificate: consoleFiles, token: 'not-the-internal-token' }));
  });

  it('still accepts the token, with or without a certificate', async () => {
    const before = await weirTokenOutcomes();
    for (const certificate of [undefined, consoleFiles, files.acme]) {
      const client = await internalClient({
        token: TEST_INTERNAL_TOKEN,
        ...(certificate === undefined ? {} : { certificate }),
      });
      expect((await new InternalAdmin(client).describeBroker()).nodeId).toBe(0);
    }
    expect((await weirTokenOutcomes()).success).toBe(before.success + 3);
  });

  it('serves the weir CLI with a trusted certificate and no token file (--internal-tls-*)', async () => {
    // The TLS files' directory has no internal-listener.token, so the certificate alone must do.
    const cli = (...tlsFlags: string[]) =>
      weir([
        'acl',
        'effective',
        '--principal',
        PRINCIPAL_OF.granted,
        '--internal',
        running.internalBootstrap,
        '--data-dir',
        files.dir,
        '--internal-tls-ca',
        files.ca,
        ...tlsFlags,
      ]);
    const served = expectExitCode(
      await cli('--internal-tls-cert', consoleFiles.cert, '--internal-tls-key', consoleFiles.key),
      0,
    );
    const rows = served.stdout.split('\n').map((line) => line.split(/\s{2,}/));
    expect(rows).toContainEqual(['TOPIC', 'data', 'LITERAL', 'yes', 'READ', 'ALLOW', 'ALLOW_ACL']);

    const withoutCertificate = await cli();
    expect(withoutCertificate.code).not.toBe(0);
    expect(withoutCertificate.stderr).toContain('cannot read the internal listener token');
    const halfCertificate = await cli('--internal-tls-cert', consoleFiles.cert);
    expect(halfCertificate.code).not.toBe(0);
    expect(halfCertificate.stderr).toContain('--internal-tls-cert and --internal-tls-key go together');
  });

  it("matches principals as the listener's principalMapping derives them (cn)", async () => {
    const cnBroker = await startBroker({
      listeners: { internal: mtlsInternalListener(['User:weir-console'], 'cn') },
      security: { allowEveryoneIfNoAclFound: false, authFailureDelayMs: 0 },
    });
    try {
      const trusted = await internalClient({ certificate: consoleFiles, token: '' }, cnBroker);
      expect((await new InternalAdmin(trusted).describeBroker()).nodeId).toBe(0);
      // User:alice under cn: not in the list.
      const untrusted = await internalClient({ certificate: files.alice, token: '' }, cnBroker);
      expect((await weirFailure(new InternalAdmin(untrusted).describeBroker())).code).toBe(
        ErrorCode.SASL_AUTHENTICATION_FAILED,
      );
    } finally {
      await Promise.all(clients.splice(0).map((client) => client.close()));
      await cnBroker.dispose();
    }
  });
});
