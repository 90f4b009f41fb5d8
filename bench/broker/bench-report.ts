import { formatCount } from '../harness/table';
import { medianBy } from '../log/median';
import { MB } from '../log/units';
import { MAX_SECONDS, type Size } from './bench-config';
import type { LatencyRun } from './sdk-client';
import { judge, type Target, type Verdict } from './targets';

export function progress(message: string): void {
  process.stderr.write(`[bench:broker] ${message}\n`);
}

/** A client run with the server's CPU over the same phase. */
export interface Measured {
  records: number;
  payloadBytes: number;
  seconds: number;
  clientCpuMs: number;
  /** CPU the server used between the client's start and end marks, and how long that was. */
  serverCpuMs: number | undefined;
  serverSeconds: number | undefined;
  /** The broker's event-loop delay p99 over the same phase (Weir rows only). */
  serverLoopDelayP99Ms?: number | undefined;
}

export const messagesPerSecond = (run: Measured): number => run.records / run.seconds;
export const megabytesPerSecond = (run: Measured): number => run.payloadBytes / run.seconds / MB;
/** Server CPU per MB of value bytes moved (undefined where server CPU was not measured). */
export const serverCpuMsPerMegabyte = (run: Measured): number | undefined =>
  run.serverCpuMs === undefined || run.payloadBytes <= 0
    ? undefined
    : run.serverCpuMs / (run.payloadBytes / MB);

export interface Row {
  system: string;
  workload: string;
  run?: Measured;
  latency?: LatencyRun;
  /** A row that could not be measured says why instead. */
  failure?: string;
  note?: string;
  target?: { label: string; verdict: Verdict | undefined };
}

/** The best rate one baseline reached, for the targets. */
export interface Baseline {
  system: string;
  msgsPerSecond: number;
}

/**
 * What one benchmark run has found so far: the table's rows in the order they were measured, the
 * notes printed under it, the targets missed, and the reference values the targets compare with.
 */
export class BenchReport {
  readonly rows: Row[] = [];
  readonly notes: string[] = [];
  readonly missed: string[] = [];
  /** The best baseline per size and direction, for the targets. */
  readonly baselines = {
    publish: new Map<string, Baseline>(),
    consume: new Map<string, Baseline>(),
  };
  /** What the floor wrote per second, once its row has been measured. */
  floorBytesPerSecond: number | undefined;

  addRow(row: Row): Row {
    this.rows.push(row);
    return row;
  }

  /** Measures one row; a failure becomes a FAILED row and a note, and the run goes on. */
  async attempt(system: string, workload: string, measure: () => Promise<Row>): Promise<Row> {
    try {
      return this.addRow(await measure());
    } catch (error) {
      const message = error instanceof Error ? error.message.split('\n')[0]! : String(error);
      progress(`${system} ${workload} failed: ${message}`);
      this.notes.push(`${system} ${workload} FAILED: ${message}`);
      // A row that could not be measured met no target: the run must not end with "All targets met".
      this.missed.push(`${system} ${workload} (failed)`);
      return this.addRow({ system, workload, failure: message });
    }
  }

  /** The row of the median run by msgs/s; with several runs, a note lists each run's rate. */
  medianRow(system: string, workload: string, runs: Measured[]): Row {
    const median = medianBy(runs, messagesPerSecond)!;
    if (runs.length > 1) {
      this.notes.push(
        `${system} ${workload}: median of ${runs.length} runs; msgs/s of each: ` +
          runs.map((run) => formatCount(messagesPerSecond(run))).join(', '),
      );
    }
    return { system, workload, run: median };
  }

  noteBaseline(kind: 'publish' | 'consume', size: Size, system: string, run: Measured): void {
    const best = this.baselines[kind].get(size.key);
    const rate = messagesPerSecond(run);
    if (best === undefined || rate > best.msgsPerSecond)
      this.baselines[kind].set(size.key, { system, msgsPerSecond: rate });
  }

  findRow(system: string, workload: string): Row | undefined {
    return this.rows.find(
      (row) => row.system === system && row.workload === workload && row.run !== undefined,
    );
  }

  setTarget(row: Row | undefined, label: string, measured: number | undefined, target: Target | undefined) {
    if (row === undefined) return;
    const verdict = measured !== undefined && target !== undefined ? judge(measured, target) : undefined;
    row.target = { label, verdict };
    if (verdict && !verdict.met) this.missed.push(`${row.system} ${row.workload}`);
  }
}

/** Says so when a run stopped at BROKER_BENCH_MAX_SECONDS before sending every record. */
export function cappedNote(run: Measured, size: Size): string | undefined {
  return run.records < size.count ? `capped at ${MAX_SECONDS} s` : undefined;
}
