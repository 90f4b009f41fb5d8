import { mkdir, writeFile } from 'node:fs/promises';
import { type Profiler, Session } from 'node:inspector/promises';
import { findSourceMap } from 'node:module';
import { join } from 'node:path';
import { type IntervalHistogram, monitorEventLoopDelay } from 'node:perf_hooks';

/** What the broker process measured of itself over one timed phase. */
export interface PhaseStats {
  /** 99th percentile of how late a RESOLUTION_MS timer fired (0 when it was never late). */
  eventLoopDelayP99Ms: number;
  /** The phase's CPU profile, when profiling was asked for. */
  profilePath?: string;
}

/**
 * The timer interval of the delay histogram. The broker's own metric (prom-client's
 * `weir_nodejs_eventloop_lag_p99_seconds`) samples every 10 ms and is reset by every scrape, so it
 * cannot be read over exactly one phase; a 1 ms timer also sees the sub-millisecond stalls the
 * latency targets of issue 22 are about.
 */
const RESOLUTION_MS = 1;
/** The sampling interval of the CPU profile, as `node --cpu-prof`'s default. */
const PROFILE_INTERVAL_US = 1000;

/**
 * Runs inside the benchmark's broker process and brackets the timed phases the parent announces:
 * an event-loop delay histogram reset at each start and read at each end, and, with a profile
 * directory, a V8 CPU profile of exactly that phase written as `<name>.cpuprofile` (the format of
 * `node --cpu-prof`, which would instead profile the whole process, start-up and every row at once).
 */
export class BrokerPhaseProbe {
  #histogram: IntervalHistogram | undefined;
  #session: Session | undefined;
  #profileName: string | undefined;

  constructor(private readonly profileDir: string | undefined) {}

  async start(name: string): Promise<void> {
    if (this.profileDir !== undefined) {
      if (this.#session === undefined) {
        this.#session = new Session();
        this.#session.connect();
        await this.#session.post('Profiler.enable');
        await this.#session.post('Profiler.setSamplingInterval', { interval: PROFILE_INTERVAL_US });
      }
      await this.#session.post('Profiler.start');
      this.#profileName = name;
    }
    // The histogram is only enabled while a phase runs, so benchmarks that never ask for phases
    // do not pay for its timer.
    this.#histogram ??= monitorEventLoopDelay({ resolution: RESOLUTION_MS });
    this.#histogram.reset();
    this.#histogram.enable();
  }

  async end(): Promise<PhaseStats> {
    const histogram = this.#histogram;
    if (histogram === undefined) throw new Error('a phase ended that never started');
    histogram.disable();
    // The histogram records whole timer intervals (about RESOLUTION_MS when the loop is free);
    // what exceeds the interval is the delay.
    const p99Ms = histogram.count === 0 ? 0 : histogram.percentile(99) / 1e6;
    const stats: PhaseStats = { eventLoopDelayP99Ms: Math.max(0, p99Ms - RESOLUTION_MS) };
    if (this.#session !== undefined && this.#profileName !== undefined) {
      const { profile } = await this.#session.post('Profiler.stop');
      mapToSources(profile);
      await mkdir(this.profileDir!, { recursive: true });
      stats.profilePath = join(this.profileDir!, `${this.#profileName}.cpuprofile`);
      await writeFile(stats.profilePath, JSON.stringify(profile));
      this.#profileName = undefined;
    }
    return stats;
  }

  close(): void {
    this.#histogram?.disable();
    this.#session?.disconnect();
  }
}

/**
 * tsx hands V8 each TypeScript module as one line of generated code, so a profile's positions would
 * all read line 1; tsx registers the modules' source maps, so each frame is moved to its place in the
 * TypeScript source instead (frames without a map, Node's own, keep theirs).
 */
function mapToSources(profile: Profiler.Profile): void {
  for (const { callFrame } of profile.nodes) {
    if (!callFrame.url.startsWith('file://')) continue;
    const entry = findSourceMap(callFrame.url)?.findEntry(callFrame.lineNumber, callFrame.columnNumber);
    if (entry === undefined || !('originalLine' in entry)) continue;
    callFrame.lineNumber = entry.originalLine;
    callFrame.columnNumber = entry.originalColumn;
  }
}
