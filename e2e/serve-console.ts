/*
 * The browser tests' web server: a real broker on ephemeral ports with a temporary data directory,
 * and the production console build (`next start --port 0`) pointed at its internal listener.
 * Next's banner goes to stdout unchanged, so playwright.config.ts reads the console URL from it;
 * the broker's addresses go to a JSON file for specs. SIGTERM, SIGINT or the console exiting
 * stops both: the console by its PID (waiting until it has exited), then the broker, whose data
 * directory is removed.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { Admin, Client, InternalAdmin } from '@weir/protocol';
import { type RunningBroker, startBroker } from '@weir/test-broker';
import { startConsoleProcess, stopWithConsole } from './support/console-process';
import { type ClusterInfo, clusterInfoPath } from './support/e2e-cluster';
import { LOGIN_USERS, loginInfoPath, OPEN_ACL_USERS } from './support/login-users';

/*
 * `--login`: the secure profile instead (SASL_PLAINTEXT client listener, ACLs required, the
 * bootstrap admin a super user, a read-only user with DESCRIBE/READ on topics) and the console in
 * login mode. Its URL is printed as `WEIR_LOGIN_CONSOLE_URL=…` once Next is ready, for
 * playwright.config.ts to hand to login.spec.ts.
 */
const openAclsMode = process.argv.includes('--open-acls');
const loginMode = openAclsMode || process.argv.includes('--login');

/*
 * `--open-acls`: login mode against a broker that allows everyone where no ACL is found
 * (allow.everyone.if.no.acl.found=true), with users alice and bob and a topic `orders` no ACL
 * names, for acl-lockout.spec.ts, which starts this server itself. It prints the URL the same
 * way but writes no file: the `--login` server's file must stay that server's.
 */

async function startOpenAclBroker(): Promise<RunningBroker> {
  const running = await startBroker({
    listeners: { client: { securityProtocol: 'SASL_PLAINTEXT' } },
    security: {
      bootstrapAdmin: { username: LOGIN_USERS.admin.username, password: LOGIN_USERS.admin.password },
      superUsers: [`User:${LOGIN_USERS.admin.username}`],
      allowEveryoneIfNoAclFound: true,
    },
  });
  const client = new Client({
    bootstrapServers: [running.internalBootstrap],
    clientId: 'e2e-open-acls-setup',
    sasl: { mechanism: 'WEIR-TOKEN', token: running.internalToken },
  });
  try {
    for (const { username, password } of Object.values(OPEN_ACL_USERS)) {
      await new InternalAdmin(client).upsertUser({ username, mechanism: 'SCRAM-SHA-256', password });
    }
    await new Admin(client).createTopics([{ name: 'orders', partitions: 1 }]);
  } finally {
    await client.close();
  }
  return running;
}

async function startSecureBroker(): Promise<RunningBroker> {
  const running = await startBroker({
    listeners: { client: { securityProtocol: 'SASL_PLAINTEXT' } },
    security: {
      bootstrapAdmin: { username: LOGIN_USERS.admin.username, password: LOGIN_USERS.admin.password },
      superUsers: [`User:${LOGIN_USERS.admin.username}`],
      allowEveryoneIfNoAclFound: false,
    },
  });
  const client = new Client({
    bootstrapServers: [running.internalBootstrap],
    clientId: 'e2e-login-setup',
    sasl: { mechanism: 'WEIR-TOKEN', token: running.internalToken },
  });
  try {
    const { username, password } = LOGIN_USERS.reader;
    await new InternalAdmin(client).upsertUser({ username, mechanism: 'SCRAM-SHA-256', password });
    const admin = new Admin(client);
    await admin.createTopics([{ name: 'orders', partitions: 1 }]);
    await admin.createAcls(
      (['DESCRIBE', 'READ'] as const).map((operation) => ({
        resourceType: 'TOPIC' as const,
        resourceName: '*',
        patternType: 'LITERAL' as const,
        principal: `User:${username}`,
        host: '*',
        operation,
        permission: 'ALLOW' as const,
      })),
    );
  } finally {
    await client.close();
  }
  return running;
}

async function main(): Promise<void> {
  // The log cleaner looks again 500 ms after finding nothing due (not 15 s), so a compacted topic
  // a spec fills is cleaned while its page is open; the lag and throughput history samples every
  // 500 ms (not 10 s), so lag-history.spec.ts sees real samples within a second.
  const running = openAclsMode
    ? await startOpenAclBroker()
    : loginMode
      ? await startSecureBroker()
      : await startBroker({
          log: { cleaner: { backoffMs: 500 } },
          stats: { history: { sampleIntervalMs: 500 } },
        });
  if (!loginMode) {
    const info: ClusterInfo = {
      bootstrap: running.bootstrap,
      internalBootstrap: running.internalBootstrap,
      internalToken: running.internalToken,
    };
    mkdirSync(dirname(clusterInfoPath), { recursive: true });
    writeFileSync(clusterInfoPath, `${JSON.stringify(info, null, 2)}\n`);
  }

  const consoleProcess = startConsoleProcess({
    broker: running.internalBootstrap,
    internalToken: running.internalToken,
    auth: loginMode ? 'login' : 'none',
    stdout: loginMode ? 'pipe' : 'inherit',
  });
  if (loginMode) {
    let banner = '';
    let announced = false;
    consoleProcess.child.stdout?.on('data', (chunk: Buffer) => {
      if (announced) return;
      banner += chunk.toString('utf8');
      const match = /Local:\s+(http:\/\/127\.0\.0\.1:\d+)[\s\S]*Ready in/.exec(banner);
      if (match !== null) {
        announced = true;
        if (!openAclsMode) {
          mkdirSync(dirname(loginInfoPath), { recursive: true });
          writeFileSync(loginInfoPath, `${JSON.stringify({ consoleUrl: match[1] })}\n`);
        }
        process.stdout.write(`WEIR_LOGIN_CONSOLE_URL=${match[1]}\n`);
      }
    });
  }

  stopWithConsole(consoleProcess, () => running.dispose());
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
