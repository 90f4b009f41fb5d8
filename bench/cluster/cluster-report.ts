import type { Measured } from '../broker/bench-report';
import { judge, type Target, type Verdict } from '../broker/targets';
import { LatencyRecorder } from '../log/latency';

export function progress(message: string): void {
  process.stderr.write(`[bench:cluster] ${message}\n`);
}

/** Percentiles of a set of durations, for the propagation and failover rows. */
export interface Durations {
  count: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export function durationsOf(samplesMs: readonly number[]): Durations {
  const recorder = new LatencyRecorder();
  for (const sample of samplesMs) recorder.record(sample);
  return {
    count: recorder.count,
    p50Ms: recorder.percentileMs(50),
    p99Ms: recorder.percentileMs(99),
    maxMs: recorder.percentileMs(100),
  };
}

/** One line of the table: a throughput run, a set of durations or a rate of etcd calls. */
export interface ClusterRow {
  setup: string;
  measurement: string;
  run?: Measured;
  durations?: Durations;
  /** Events per second that are not a client's records (etcd calls). */
  eventsPerSecond?: { count: number; seconds: number };
  /** A row that could not be measured says why instead. */
  failure?: string;
  /** `ratio` stands in for the verdict's where the issue sets no target, only a baseline. */
  target?: { label: string; verdict: Verdict | undefined; ratio?: string };
}

/** The rows, in the order measured, the notes printed under the table and the targets missed. */
export class ClusterReport {
  readonly rows: ClusterRow[] = [];
  readonly notes: string[] = [];
  readonly missed: string[] = [];

  /** Measures rows; a failure becomes a FAILED row and a note, and the run goes on. */
  async attempt(setup: string, measurement: string, measure: () => Promise<ClusterRow[]>): Promise<void> {
    try {
      this.rows.push(...(await measure()));
    } catch (error) {
      const message = error instanceof Error ? error.message.split('\n')[0]! : String(error);
      progress(`${setup} ${measurement} failed: ${message}`);
      this.notes.push(`${setup} ${measurement} FAILED: ${message}`);
      // A row that could not be measured met no target: the run must not end with "All targets met".
      this.missed.push(`${setup} ${measurement} (failed)`);
      this.rows.push({ setup, measurement, failure: message });
    }
  }

  /** A row without a target: `label` names its baseline, and `ratio` is the row over it. */
  setBaseline(row: ClusterRow | undefined, label: string, ratio: string): void {
    if (row === undefined || row.failure !== undefined) return;
    row.target = { label, verdict: undefined, ratio };
  }

  find(setup: string, measurement: string): ClusterRow | undefined {
    return this.rows.find((row) => row.setup === setup && row.measurement === measurement);
  }

  /** Judges `row` by `measured` against `target`; without either the status is n/a. */
  setTarget(
    row: ClusterRow | undefined,
    label: string,
    measured: number | undefined,
    target: Target | undefined,
  ) {
    if (row === undefined || row.failure !== undefined) return;
    const verdict = measured !== undefined && target !== undefined ? judge(measured, target) : undefined;
    row.target = { label, verdict };
    if (verdict && !verdict.met) this.missed.push(`${row.setup} ${row.measurement}`);
  }
}
