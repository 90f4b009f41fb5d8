import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { createBrokerMetrics } from '@weir/broker';
import { type WeirBrokerInput, weirBroker } from '../broker/weir-broker';

/** One record-scan step: when its request arrived and when its response was queued. */
export interface ScanStep {
  startMs: number;
  endMs: number;
}

/** What the probe answers: the broker's record-scan steps, with wall-clock times in ms since the epoch. */
export interface ScanProbe {
  /** WeirScanRecords requests the broker has answered. */
  completed: number;
  lastEndMs: number;
  /** The latest steps, oldest first; enough to cover any abort the benchmark looks at. */
  recent: ScanStep[];
}

const RECENT_STEPS = 64;

/** The API name the broker's request metrics use for one bounded scan step. */
const SCAN_API = 'WeirScanRecords';

/** High-resolution wall clock, comparable across processes on one machine. */
export function wallClockMs(): number {
  return performance.timeOrigin + performance.now();
}

/**
 * The console benchmark's broker: `weir-broker` plus a probe that records when each record-scan
 * step ends, served as JSON on an ephemeral loopback HTTP port. Cancel latency is the time from a
 * client's abort until the broker finishes its last scan step, and only the broker knows that; its
 * request metrics already see every response, so the probe hooks there instead of into the broker.
 */
export async function probedBroker(input: WeirBrokerInput) {
  const metrics = createBrokerMetrics();
  const probe: ScanProbe = { completed: 0, lastEndMs: 0, recent: [] };
  const histogram = metrics.requestDurationSeconds;
  const observe = histogram.observe.bind(histogram) as (labels: { api: string }, seconds: number) => void;
  histogram.observe = ((labels: { api: string }, seconds: number) => {
    if (labels.api === SCAN_API) {
      const endMs = wallClockMs();
      probe.completed++;
      probe.lastEndMs = endMs;
      probe.recent.push({ startMs: endMs - seconds * 1000, endMs });
      if (probe.recent.length > RECENT_STEPS) probe.recent.shift();
    }
    observe(labels, seconds);
  }) as typeof histogram.observe;

  const broker = await weirBroker(input, metrics);
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(probe));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const probePort = (server.address() as AddressInfo).port;
  return {
    value: { ...broker.value, probePort },
    async stop() {
      server.close();
      await broker.stop();
    },
  };
}

/** Reads the probe of a broker started by {@link probedBroker}. */
export async function readScanProbe(probePort: number): Promise<ScanProbe> {
  const response = await fetch(`http://127.0.0.1:${probePort}/`);
  return (await response.json()) as ScanProbe;
}
