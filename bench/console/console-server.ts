import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const consoleDir = join(import.meta.dirname, '..', '..', 'apps', 'console');
const buildIdPath = join(consoleDir, '.next', 'BUILD_ID');
/** `next build` holds this while it writes .next (and deletes BUILD_ID first). */
const buildLockPath = join(consoleDir, '.next', 'lock');
const nextBin = createRequire(join(consoleDir, 'package.json')).resolve('next/dist/bin/next');

/** Next prints this banner once it listens; the same pattern playwright.config.ts waits for. */
const READY_PATTERN = /Local:\s+(http:\/\/127\.0\.0\.1:\d+)[\s\S]*Ready in/;

export interface ConsoleServer {
  readonly url: string;
  readonly pid: number;
  /** SIGTERM by PID, SIGKILL if it is still there after `timeoutMs`. */
  stop(timeoutMs: number): Promise<void>;
}

let live: ChildProcess | undefined;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Waits until no `next build` is writing .next (other people share this checkout and rebuild
 * it) and returns the build id, or undefined when there is no build. Fails after `timeoutMs`.
 */
export async function settledBuildId(timeoutMs: number): Promise<string | undefined> {
  const deadlineMs = Date.now() + timeoutMs;
  let told = false;
  while (existsSync(buildLockPath)) {
    if (Date.now() > deadlineMs) throw new Error(`another next build still holds ${buildLockPath}`);
    if (!told) console.error('another `next build` of the console is running; waiting for it…');
    told = true;
    await sleep(1000);
  }
  return existsSync(buildIdPath) ? currentBuildId() : undefined;
}

/** The production build's id, after building it when there is none (a build takes minutes). */
export async function ensureConsoleBuild(timeoutMs: number): Promise<string> {
  const existing = await settledBuildId(timeoutMs);
  if (existing !== undefined) return existing;
  console.error('apps/console/.next/BUILD_ID is missing: running `npm run build -w @weir/console`…');
  const build = spawn('npm', ['run', 'build', '-w', '@weir/console'], {
    cwd: join(consoleDir, '..', '..'),
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const timer = setTimeout(() => build.kill('SIGKILL'), timeoutMs);
  const code = await new Promise<number | null>((resolve) => build.once('exit', resolve));
  clearTimeout(timer);
  if (code !== 0 || !existsSync(buildIdPath)) throw new Error(`the console build failed (exit ${code})`);
  return currentBuildId();
}

/** The build `next start` serves from now; another `next build` in the checkout replaces it. */
export function currentBuildId(): string {
  return existsSync(buildIdPath) ? readFileSync(buildIdPath, 'utf8').trim() : '(none: a build is under way)';
}

/**
 * `next start` of the production build on 127.0.0.1 and a port the kernel picks, pointed at the
 * broker's internal listener, as e2e/serve-console.ts starts it for the browser tests.
 */
export function startConsole(options: {
  internalBootstrap: string;
  internalToken: string;
  timeoutMs: number;
}): Promise<ConsoleServer> {
  const child = spawn(process.execPath, [nextBin, 'start', '--hostname', '127.0.0.1', '--port', '0'], {
    cwd: consoleDir,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      NEXT_TELEMETRY_DISABLED: '1',
      WEIR_CONSOLE_BROKER: options.internalBootstrap,
      WEIR_CONSOLE_INTERNAL_TOKEN: options.internalToken,
      WEIR_CONSOLE_LOG_LEVEL: 'warn',
    },
  });
  live = child;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    let banner = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`next start did not print its address within ${options.timeoutMs} ms`));
    }, options.timeoutMs);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`next start exited with ${signal ?? code} before it was ready`));
    });
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (text: string) => {
      // Only the banner is wanted; later output would only grow the buffer.
      if (banner.length > 10_000) return;
      banner += text;
      const match = READY_PATTERN.exec(banner);
      if (match === null) return;
      clearTimeout(timer);
      resolve({
        url: match[1]!,
        pid: child.pid!,
        async stop(timeoutMs: number) {
          if (child.exitCode !== null || child.signalCode !== null) return;
          child.kill('SIGTERM');
          const killer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
          await exited;
          clearTimeout(killer);
        },
      });
    });
  });
}

/** SIGKILLs the console this process started, if it still runs (the watchdog's last resort). */
export function killConsole(): void {
  if (live !== undefined && live.exitCode === null && live.signalCode === null) live.kill('SIGKILL');
}
