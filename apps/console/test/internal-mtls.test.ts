import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { InternalAdmin } from '@weir/protocol';
import { type RunningBroker, startBroker } from '@weir/test-broker';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueClientCertificate } from '../../broker/src/cli/certs-generate';
import { makeTlsFiles, type TlsFiles } from '../../broker/test/tls-fixtures';
import { type ConsoleEnv, parseEnv, resolveInternalTls, resolveToken } from '../src/env';
import { type BrokerClients, createBrokerClients } from '../src/server/admin-client';
import { createCaller } from '../src/server/api/root';
import { createContextInner } from '../src/server/api/trpc';
import { DEFAULT_SEARCH_LIMITS } from '../src/server/services/message-search';

let files: TlsFiles;
let broker: RunningBroker;
/** The console's environment: TLS with its client certificate, and no token at all. */
let consoleEnv: ConsoleEnv;
const opened: BrokerClients[] = [];

beforeAll(async () => {
  files = await makeTlsFiles();
  // What `weir certs dev --client weir-console` writes, issued from the same development CA.
  const issued = issueClientCertificate(
    {
      certPem: await readFile(files.ca, 'utf8'),
      keyPem: await readFile(join(files.dir, 'ca-key.pem'), 'utf8'),
      commonName: 'Weir development CA',
    },
    { commonName: 'weir-console' },
  );
  const certFile = join(files.dir, 'weir-console.pem');
  const keyFile = join(files.dir, 'weir-console-key.pem');
  await writeFile(certFile, issued.certPem);
  await writeFile(keyFile, issued.keyPem, { mode: 0o600 });
  broker = await startBroker({
    listeners: {
      internal: {
        tls: {
          certFile: files.server.cert,
          keyFile: files.server.key,
          caFile: files.ca,
          clientAuth: 'requested',
          principalMapping: 'cn',
        },
        trustedCertificatePrincipals: ['User:weir-console'],
      },
    },
    security: { allowEveryoneIfNoAclFound: false, authFailureDelayMs: 0 },
    topics: { autoCreateEnable: false },
  });
  // A topic no ACL grants, so a user the console acts for sees none.
  await broker.broker.services.topics.createTopic({ name: 'hidden', partitionCount: 1, configs: {} });
  consoleEnv = parseEnv({
    WEIR_CONSOLE_BROKER: broker.internalBootstrap,
    WEIR_CONSOLE_INTERNAL_TLS_CA_FILE: files.ca,
    WEIR_CONSOLE_INTERNAL_TLS_CERT_FILE: certFile,
    WEIR_CONSOLE_INTERNAL_TLS_KEY_FILE: keyFile,
  });
}, 60_000);

afterAll(async () => {
  try {
    await Promise.all(opened.splice(0).map((clients) => clients.close()));
  } finally {
    // The broker reads the certificates in files.dir: it stops before they are removed.
    await broker?.dispose();
    await files?.cleanup();
  }
});

/** The broker clients as `processBrokerConnection` builds them, from `env` instead of the process's. */
function clientsFrom(env: ConsoleEnv, actAs?: string): BrokerClients {
  const clients = createBrokerClients({
    bootstrap: env.brokerBootstrap,
    token: () => resolveToken(env.token),
    tls: () => resolveInternalTls(env.internalTls),
    ...(actAs === undefined ? {} : { actAs }),
    createInternalAdmin: (client) => new InternalAdmin(client),
  });
  opened.push(clients);
  return clients;
}

function callerFor(clients: BrokerClients) {
  return createCaller(
    createContextInner({
      services: {
        broker: clients,
        logger: pino({ level: 'silent' }),
        now: Date.now,
        searchLimits: DEFAULT_SEARCH_LIMITS,
      },
    }),
  );
}

describe('the console on an internal listener that trusts its certificate', () => {
  it('connects with its certificate and key and no token, as the internal super user', async () => {
    expect(consoleEnv.token).toEqual({ kind: 'certificate' });
    const caller = callerFor(clientsFrom(consoleEnv));
    const overview = await caller.cluster.overview({});
    expect(overview.health.status).not.toBe('unreachable');
    expect(overview.broker?.version).toEqual(expect.any(String));
    // Creating a topic needs rights nobody but a super user has on this broker.
    await caller.topics.create({ name: 'console-made', partitions: 1 });
    expect(
      broker.broker.services.topicDescriptions.listTopics({ includeInternal: false }).map((t) => t.name),
    ).toContain('console-made');
  });

  it("acts for a logged-in user with the certificate, under that user's ACLs", async () => {
    const asConsole = await callerFor(clientsFrom(consoleEnv)).topics.list({ offset: 0, limit: 10 });
    expect(asConsole.topics.map((topic) => topic.name)).toContain('hidden');
    const asReader = await callerFor(clientsFrom(consoleEnv, 'User:reader')).topics.list({
      offset: 0,
      limit: 10,
    });
    expect(asReader.topics).toEqual([]);
  });

  it('reports the refusal as a health reason when the certificate is left out', async () => {
    const withoutCertificate = parseEnv({
      WEIR_CONSOLE_BROKER: broker.internalBootstrap,
      WEIR_CONSOLE_INTERNAL_TLS_CA_FILE: files.ca,
      WEIR_CONSOLE_INTERNAL_TOKEN: 'not-the-internal-token',
    });
    const overview = await callerFor(clientsFrom(withoutCertificate)).cluster.overview({});
    expect(overview.health.status).toBe('unreachable');
    expect(overview.health.reasons[0]?.detail).toMatch(/SASL_AUTHENTICATION_FAILED/);
  });
});
