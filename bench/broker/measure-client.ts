import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { prefaultPageCache } from '../log/page-cache';
import { GIB } from '../log/units';
import type { Size } from './bench-config';
import type { Measured } from './bench-report';
import type { ClientRun } from './phase';
import { processCpuMs } from './proc-stat';

/**
 * Runs a client child while sampling the server's CPU at the child's start and end marks; with
 * several server processes (a cluster's brokers) their CPU is summed.
 */
export async function measureClient(
  serverPids: number | readonly number[] | undefined,
  start: (onMark: (label: 'start' | 'end') => void) => Promise<ClientRun>,
): Promise<Measured> {
  let startCpuMs = 0;
  let startMs = 0;
  let serverCpuMs: number | undefined;
  let serverSeconds: number | undefined;
  const pids = serverPids === undefined ? [] : typeof serverPids === 'number' ? [serverPids] : serverPids;
  const serverCpuNowMs = () => pids.reduce((total, pid) => total + processCpuMs(pid), 0);
  const run = await start((label) => {
    if (pids.length === 0) return;
    if (label === 'start') {
      startCpuMs = serverCpuNowMs();
      startMs = performance.now();
    } else {
      serverCpuMs = serverCpuNowMs() - startCpuMs;
      serverSeconds = (performance.now() - startMs) / 1000;
    }
  });
  return { ...run, serverCpuMs, serverSeconds };
}

/** Bytes one produce run will add to the page cache (payload plus a generous per-record overhead). */
function expectedLogBytes(size: Size): number {
  return Math.min(GIB, size.count * (size.valueBytes + 64));
}

/** Before every timed write phase, as the floor does: see page-cache.ts for why. */
export async function prefault(root: string, size: Size): Promise<void> {
  await prefaultPageCache(join(root, 'prefault.scratch'), expectedLogBytes(size));
}
