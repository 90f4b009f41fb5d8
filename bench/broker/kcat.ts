import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';

/** A kcat run: wall time from spawn to exit, and the CPU kcat itself used (from the shell's `times`). */
export interface KcatRun {
  seconds: number;
  clientCpuMs: number;
}

/** `0m1.234s` as milliseconds. */
function parseShellTime(text: string): number {
  const match = /^(\d+)m([\d.]+)s$/.exec(text);
  if (!match) throw new Error(`cannot read the shell time "${text}"`);
  return (Number(match[1]) * 60 + Number(match[2])) * 1000;
}

/**
 * Runs kcat with `args` (its stdout discarded) under `sh`, whose `times` builtin then prints the
 * CPU its children used: exactly kcat's own user and system time, for any run length.
 * `onStart` and `onEnd` bracket the run for sampling the broker's CPU.
 */
export function runKcat(
  args: readonly string[],
  timeoutMs: number,
  hooks: { onStart: () => void; onEnd: () => void },
): Promise<KcatRun> {
  const script = 'kcat "$@" >/dev/null || exit $?; times';
  return new Promise((resolve, reject) => {
    hooks.onStart();
    const startedMs = performance.now();
    const child = spawn('sh', ['-c', script, 'sh', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-4000);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      const seconds = (performance.now() - startedMs) / 1000;
      hooks.onEnd();
      if (code !== 0) {
        reject(new Error(`kcat ${args.join(' ')} exited with ${signal ?? code}:\n${stderr}`));
        return;
      }
      // `times` prints the shell's own user/system time, then its children's.
      const children = stdout.trim().split('\n').at(-1)?.trim().split(/\s+/) ?? [];
      if (children.length !== 2) {
        reject(new Error(`unexpected output of times: ${stdout}`));
        return;
      }
      resolve({ seconds, clientCpuMs: parseShellTime(children[0]!) + parseShellTime(children[1]!) });
    });
  });
}

/**
 * A file of `count` newline-separated values of exactly `valueBytes` printable bytes, which
 * `kcat -P -l` sends as one record each.
 */
export async function writeKcatInput(path: string, count: number, valueBytes: number): Promise<void> {
  const line = Buffer.alloc(valueBytes + 1);
  for (let index = 0; index < valueBytes; index++) line[index] = 0x41 + ((index * 7) % 26);
  line[valueBytes] = 0x0a;
  const linesPerChunk = Math.max(1, Math.floor((8 * 1024 * 1024) / line.length));
  const chunk = Buffer.concat(Array.from({ length: linesPerChunk }, () => line));
  await writeFile(path, '');
  for (let written = 0; written < count; written += linesPerChunk) {
    const lines = Math.min(linesPerChunk, count - written);
    await writeFile(path, chunk.subarray(0, lines * line.length), { flag: 'a' });
  }
}
