import { type ChildProcess, spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Admin, Client, InternalAdmin } from '@weir/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { brokerCommand, freshInternalToken } from '../../../scripts/console-process.mjs';
import { cleanEnv } from './cli-runner';
import { makeTlsFiles, type TlsFiles } from './tls-fixtures';

/*
 * The README's login start, `WEIR_CONSOLE_AUTH=login npm start -- --config secure.yaml`, as far as
 * its broker goes: `npm start` (scripts/start.mjs) spawns the broker with `brokerCommand`, handing
 * it its whole environment, so this test spawns exactly that command, with the README's
 * secure.yaml (certificates from `weir certs dev`; ports 0 and a temporary data directory instead
 * of the fixed ones) and the variables the README's shell has exported by then: the bootstrap
 * admin's, the client commands' WEIR_CLIENT_SASL_PASSWORD, and the console's WEIR_CONSOLE_AUTH.
 * The broker used to refuse WEIR_CONSOLE_AUTH and exit 2. The console half of the command (`next
 * start` in login mode against this broker) is what e2e/serve-console.ts --login runs.
 */

const PASSWORD = 'change-me-now';

interface LogLine {
  msg: string;
  [field: string]: unknown;
}

let child: ChildProcess | undefined;
let files: TlsFiles | undefined;

afterEach(async () => {
  // A broker still running writes into the data directory until it has exited.
  if (child !== undefined && child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child?.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }
  child = undefined;
  await files?.cleanup();
  files = undefined;
});

/** The README's secure.yaml, with ports the kernel picks and the data directory under `dir`. */
function secureYaml(dir: string, tls: TlsFiles): string {
  return [
    `dataDir: ${join(dir, 'data-secure')}`,
    'listeners:',
    '  client:',
    '    port: 0',
    '    securityProtocol: SASL_SSL',
    '    saslMechanisms: [SCRAM-SHA-512, SCRAM-SHA-256]',
    `    tls: { certFile: ${tls.server.cert}, keyFile: ${tls.server.key} }`,
    '  internal:',
    '    port: 0',
    'health: { port: 0 }',
    'metrics: { port: 0 }',
    'security:',
    '  superUsers: [User:admin]',
    '  allowEveryoneIfNoAclFound: false',
    '',
  ].join('\n');
}

describe('WEIR_CONSOLE_AUTH=login npm start -- --config secure.yaml (README)', () => {
  it('starts the broker with the console and client variables in its environment, serves, and stops on SIGTERM', async () => {
    files = await makeTlsFiles();
    const config = join(files.dir, 'secure.yaml');
    await writeFile(config, secureYaml(files.dir, files));
    const token = freshInternalToken();
    const env = cleanEnv({
      WEIR_SECURITY__BOOTSTRAP_ADMIN__USERNAME: 'admin',
      WEIR_SECURITY__BOOTSTRAP_ADMIN__PASSWORD: PASSWORD,
      WEIR_CLIENT_SASL_PASSWORD: PASSWORD,
      WEIR_CONSOLE_AUTH: 'login',
    });
    const start = brokerCommand(['--config', config], token, env, { stdio: ['ignore', 'pipe', 'pipe'] });
    expect(start.options.env.WEIR_CONSOLE_AUTH).toBe('login');
    const running = spawn(start.command, start.args, start.options);
    child = running;

    let stderr = '';
    running.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => running.once('exit', (code) => resolve(code)));
    const lines: LogLine[] = [];
    const started = new Promise<LogLine>((resolve, reject) => {
      createInterface({ input: running.stdout! }).on('line', (text) => {
        const line = JSON.parse(text) as LogLine;
        lines.push(line);
        if (line.msg === 'startup complete') resolve(lines.find((entry) => entry.msg === 'broker started')!);
      });
      void exited.then((code) =>
        reject(
          new Error(`the broker exited (${code}) before it started:\n${stderr}${JSON.stringify(lines)}`),
        ),
      );
    });
    const brokerStarted = await started;
    const probes = lines.find((line) => line.msg === 'health and metrics serving')!;
    expect((await fetch(`http://127.0.0.1:${probes.healthPort}/ready`)).status).toBe(200);

    // The admin of the README reaches the SASL_SSL listener; the console's token the internal one.
    const ca = await readFile(files.ca, 'utf8');
    const asAdmin = new Client({
      bootstrapServers: [String(brokerStarted.client)],
      sasl: { mechanism: 'SCRAM-SHA-512', username: 'admin', password: PASSWORD },
      tls: { ca },
    });
    const asConsole = new Client({
      bootstrapServers: [String(brokerStarted.internal)],
      sasl: { mechanism: 'WEIR-TOKEN', token },
    });
    try {
      await new Admin(asAdmin).createTopics([{ name: 'orders', partitions: 3 }]);
      expect(await new Admin(asAdmin).listTopics()).toEqual(['orders']);
      expect((await new InternalAdmin(asConsole).describeBroker()).topicCount).toBe(1);
    } finally {
      await Promise.all([asAdmin.close(), asConsole.close()]);
    }

    running.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(lines.map((line) => line.msg)).toContain('shutdown complete');
    expect(stderr).toBe('');
  }, 60_000);
});
