/*
 * The browser tests' web server: a real broker on ephemeral ports with a temporary data directory,
 * and the production console build (`next start --port 0`) pointed at its internal listener.
 * Next's banner goes to stdout unchanged, so playwright.config.ts reads the console URL from it;
 * the broker's addresses go to a JSON file for specs. SIGTERM, SIGINT or the console exiting
 * stops both: the console by its PID (waiting until it has exited), then the broker, whose data
 * directory is removed.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Admin, Client, InternalAdmin } from '@weir/protocol';
import { type RunningBroker, startBroker } from '@weir/test-broker';
import { type ClusterInfo, clusterInfoPath } from './support/e2e-cluster';
import { LOGIN_USERS, loginInfoPath } from './support/login-users';

const consoleDir = join(import.meta.dirname, '..', 'apps', 'console');
const nextBin = createRequire(join(consoleDir, 'package.json')).resolve('next/dist/bin/next');

/*
 * `--login`: the secure profile instead (SASL_PLAINTEXT client listener, ACLs required, the
 * bootstrap admin a super user, a read-only user with DESCRIBE/READ on topics) and the console in
 * login mode. Its URL is printed as `WEIR_LOGIN_CONSOLE_URL=…` once Next is ready, for
 * playwright.config.ts to hand to login.spec.ts.
 */
const loginMode = process.argv.includes('--login');

/** How long the console gets to exit after SIGTERM before it is killed. */
const CONSOLE_STOP_TIMEOUT_MS = 10_000;

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
  const running = loginMode ? await startSecureBroker() : await startBroker();
  if (!loginMode) {
    const info: ClusterInfo = { bootstrap: running.bootstrap, internalBootstrap: running.internalBootstrap };
    mkdirSync(dirname(clusterInfoPath), { recursive: true });
    writeFileSync(clusterInfoPath, `${JSON.stringify(info, null, 2)}\n`);
  }

  const consoleProcess: ChildProcess = spawn(
    process.execPath,
    [nextBin, 'start', '--hostname', '127.0.0.1', '--port', '0'],
    {
      cwd: consoleDir,
      stdio: ['ignore', loginMode ? 'pipe' : 'inherit', 'inherit'],
      env: {
        ...process.env,
        NEXT_TELEMETRY_DISABLED: '1',
        WEIR_CONSOLE_BROKER: running.internalBootstrap,
        WEIR_CONSOLE_INTERNAL_TOKEN: running.internalToken,
        WEIR_CONSOLE_LOG_LEVEL: 'warn',
        WEIR_CONSOLE_AUTH: loginMode ? 'login' : 'none',
      },
    },
  );
  if (loginMode) {
    let banner = '';
    let announced = false;
    consoleProcess.stdout?.on('data', (chunk: Buffer) => {
      if (announced) return;
      banner += chunk.toString('utf8');
      const match = /Local:\s+(http:\/\/127\.0\.0\.1:\d+)[\s\S]*Ready in/.exec(banner);
      if (match !== null) {
        announced = true;
        mkdirSync(dirname(loginInfoPath), { recursive: true });
        writeFileSync(loginInfoPath, `${JSON.stringify({ consoleUrl: match[1] })}\n`);
        process.stdout.write(`WEIR_LOGIN_CONSOLE_URL=${match[1]}\n`);
      }
    });
  }

  const consoleExited = new Promise<void>((resolve) => consoleProcess.once('exit', () => resolve()));
  let stopping: Promise<void> | undefined;
  const stop = (exitCode: number) => {
    stopping ??= (async () => {
      const consoleRunning = consoleProcess.exitCode === null && consoleProcess.signalCode === null;
      if (consoleRunning && consoleProcess.pid !== undefined) {
        process.kill(consoleProcess.pid, 'SIGTERM');
        // The broker goes only once the console is gone: its connections would otherwise hold
        // the broker's drain, and a console that ignores SIGTERM must not outlive this process.
        const forceKill = setTimeout(() => consoleProcess.kill('SIGKILL'), CONSOLE_STOP_TIMEOUT_MS);
        await consoleExited;
        clearTimeout(forceKill);
      }
      await running.dispose();
      process.exit(exitCode);
    })();
    return stopping;
  };
  process.on('SIGTERM', () => void stop(0));
  process.on('SIGINT', () => void stop(0));
  consoleProcess.on('exit', (code) => void stop(code ?? 1));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
