/*
 * A login-mode console on a broker that allows everyone where no ACL is found, started by the spec
 * that needs it (acl-lockout.spec.ts) rather than by playwright.config.ts: no other spec uses it, so
 * the other runs do not pay for a third broker and console. It is `serve-console.ts --open-acls` as
 * a child process; stopping it sends SIGTERM, on which that script stops the console by its PID and
 * removes the broker's data directory, and waits until it has exited.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const repoRoot = join(import.meta.dirname, '..', '..');
const tsxCli = createRequire(join(repoRoot, 'package.json')).resolve('tsx/cli');

/** How long the server may take to print its URL (a broker start and `next start`). */
const START_TIMEOUT_MS = 60_000;

export interface OpenAclConsole {
  readonly url: string;
  stop(): Promise<void>;
}

function exitOf(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

export async function startOpenAclConsole(): Promise<OpenAclConsole> {
  const child = spawn(process.execPath, [tsxCli, 'e2e/serve-console.ts', '--open-acls'], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
  });
  const stop = async () => {
    const exited = exitOf(child);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let output = '';
      let found = false;
      const timer = setTimeout(
        () => reject(new Error(`serve-console.ts --open-acls printed no URL in ${START_TIMEOUT_MS} ms`)),
        START_TIMEOUT_MS,
      );
      child.stdout?.on('data', (chunk: Buffer) => {
        if (found) return;
        output += chunk.toString('utf8');
        const match = /WEIR_LOGIN_CONSOLE_URL=(http:\/\/127\.0\.0\.1:\d+)/.exec(output);
        if (match?.[1] !== undefined) {
          found = true;
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`serve-console.ts --open-acls exited (${code}) before printing its URL`));
      });
    });
    return { url, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
