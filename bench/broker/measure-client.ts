import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { prefaultPageCache } from '../log/page-cache';
import { GIB } from '../log/units';
import type { Size } from './bench-config';
import type { Measured } from './bench-report';
import type { PhaseStats } from './broker-phase-probe';
import type { ClientRun } from './phase';
import { processCpuMs } from './proc-stat';
import type { ServiceChild } from './run-child';

/** A Weir broker child to tell about the phase, and the name of the phase's CPU profile. */
export interface PhaseProbe {
  service: Pick<ServiceChild<unknown>, 'phaseStart' | 'phaseEnd'>;
  name: string;
}

/**
 * Runs a client child while sampling the server's CPU at the child's start and end marks; with
 * several server processes (a cluster's brokers) their CPU is summed. With a `probe`, the broker
 * also measures its event-loop delay (and profiles itself) between the same marks.
 */
export async function measureClient(
  serverPids: number | readonly number[] | undefined,
  start: (onMark: (label: 'start' | 'end') => void) => Promise<ClientRun>,
  probe?: PhaseProbe,
): Promise<Measured> {
  let startCpuMs = 0;
  let startMs = 0;
  let serverCpuMs: number | undefined;
  let serverSeconds: number | undefined;
  const pids = serverPids === undefined ? [] : typeof serverPids === 'number' ? [serverPids] : serverPids;
  const serverCpuNowMs = () => pids.reduce((total, pid) => total + processCpuMs(pid), 0);
  let phaseStats: Promise<PhaseStats | undefined> | undefined;
  let phaseStarted = false;
  const run = start((label) => {
    // The server's CPU is read before the broker is told, so its profiling work is not counted.
    if (pids.length > 0 && label === 'start') {
      startCpuMs = serverCpuNowMs();
      startMs = performance.now();
    } else if (pids.length > 0) {
      serverCpuMs = serverCpuNowMs() - startCpuMs;
      serverSeconds = (performance.now() - startMs) / 1000;
    }
    if (label === 'start') {
      probe?.service.phaseStart(probe.name);
      phaseStarted = true;
    } else if (probe !== undefined) phaseStats = probe.service.phaseEnd();
  });
  const ran = await run.catch(async (error: unknown) => {
    // A client that failed mid-phase must not leave the broker's phase (and profile) open.
    if (probe !== undefined && phaseStarted && phaseStats === undefined) await probe.service.phaseEnd();
    throw error;
  });
  const stats = await phaseStats;
  return { ...ran, serverCpuMs, serverSeconds, serverLoopDelayP99Ms: stats?.eventLoopDelayP99Ms };
}

/** Bytes one produce run will add to the page cache (payload plus a generous per-record overhead). */
function expectedLogBytes(size: Size): number {
  return Math.min(GIB, size.count * (size.valueBytes + 64));
}

/** Before every timed write phase, as the floor does: see page-cache.ts for why. */
export async function prefault(root: string, size: Size): Promise<void> {
  await prefaultPageCache(join(root, 'prefault.scratch'), expectedLogBytes(size));
}
