import { type ChildProcess, spawn } from 'node:child_process';
import { connect, createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** External servers still running, so an aborted benchmark can kill exactly the ones it started. */
const liveServers = new Set<ChildProcess>();

/** A baseline server (nats-server, redis-server) this benchmark started on 127.0.0.1. */
export interface ExternalServer {
  readonly pid: number;
  readonly port: number;
  /** SIGTERM, then SIGKILL if it is still running after `timeoutMs`; resolves once it exited. */
  stop(timeoutMs: number): Promise<void>;
}

/** A port the kernel just handed out as free on 127.0.0.1 (for servers that cannot report theirs). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Starts `command` (its output kept for error messages only) and waits until it accepts TCP
 * connections on `port`. It dies with this benchmark: `killLiveServers` on abort.
 */
export async function startExternalServer(
  command: string,
  args: readonly string[],
  port: number,
  startTimeoutMs: number,
): Promise<ExternalServer> {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  liveServers.add(child);
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-4000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.once('exit', () => liveServers.delete(child));
  const deadlineMs = Date.now() + startTimeoutMs;
  while (!(await accepts(port))) {
    if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadlineMs) {
      child.kill('SIGKILL');
      throw new Error(`${command} did not start on port ${port}:\n${output}`);
    }
    await sleep(50);
  }
  return {
    pid: child.pid!,
    port,
    async stop(timeoutMs: number) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      await exited;
      clearTimeout(killer);
    },
  };
}

/** SIGKILLs every external server this process started that is still running. */
export function killLiveServers(): void {
  for (const child of liveServers) child.kill('SIGKILL');
}
