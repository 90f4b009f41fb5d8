import { spawn } from 'node:child_process';

const brokerDir = new URL('..', import.meta.url).pathname;

export interface WeirResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout as bytes, for output that need not be UTF-8. */
  stdoutBytes: Buffer;
}

/** The parent's environment without WEIR_* variables, which would change what the CLI does. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('WEIR_')));
  return { ...env, ...extra };
}

/**
 * Runs the real `weir` binary (bin/weir.js) as a user would, with `input` on its stdin (a pipe,
 * never a TTY), and collects its exit status and output.
 */
export function weir(
  args: readonly string[],
  options: {
    input?: string | Buffer;
    env?: NodeJS.ProcessEnv;
    timeoutMs?: number;
    /** Sends SIGINT (Ctrl-C) once the first output arrives on stdout. */
    interruptOnOutput?: boolean;
  } = {},
): Promise<WeirResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bin/weir.js', ...args], {
      cwd: brokerDir,
      env: options.env ?? cleanEnv(),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => {
      if (stdout.length === 0 && options.interruptOnOutput) child.kill('SIGINT');
      stdout.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const stdoutBytes = Buffer.concat(stdout);
      resolve({
        code,
        stdout: stdoutBytes.toString(),
        stderr: Buffer.concat(stderr).toString(),
        stdoutBytes,
      });
    });
    child.stdin.end(options.input ?? '');
  });
}

/** Fails with the command's stderr when it did not exit with `code`, so a failure says why. */
export function expectExitCode(result: WeirResult, code: number): WeirResult {
  if (result.code !== code) {
    throw new Error(`weir exited ${result.code}, expected ${code}; stderr:\n${result.stderr}`);
  }
  return result;
}
