import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeRecordBatch } from '@weir/protocol';
import { FLUSHED_POINT_FILE } from '../src/log/flushed-point';
import { DEFAULT_LOG_CONFIG, type LogConfig } from '../src/log/log-config';
import type { LogManagerOptions, LogSink } from '../src/log/log-manager';
import type { Clock } from '../src/log/partition-log';
import type { FaultInjector, StorageOperation } from '../src/log/storage';
import { type AtomicWriteHook, CrashableLogManager, stopManagersIn } from './crashable-log-manager';

/** A clock the test moves by hand. */
export class ManualClock implements Clock {
  constructor(public currentMs = 1_700_000_000_000) {}
  nowMs(): number {
    return this.currentMs;
  }
  advance(ms: number): void {
    this.currentMs += ms;
  }
}

/**
 * A temporary data directory, removed by `cleanup`. Before it goes, every manager made by
 * {@link createManager} that still runs in it is crashed (its timers would otherwise go on writing
 * checkpoints while `rm` walks the tree, which then fails with ENOTEMPTY), and no new one may start
 * there. Brokers and child processes are not known here: the test stops them before `cleanup`.
 */
export async function temporaryDirectory(
  prefix = 'weir-log-',
): Promise<{ path: string; cleanup: () => Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), prefix));
  return {
    path,
    cleanup: async () => {
      await stopManagersIn(path);
      await rm(path, { recursive: true, force: true });
    },
  };
}

export interface BatchSpec {
  count?: number;
  valueBytes?: number;
  timestampMs?: number;
  /** Per-record timestamps; overrides timestampMs. */
  timestampsMs?: number[];
  producerId?: bigint;
  producerEpoch?: number;
  baseSequence?: number;
  label?: string;
}

/** A producer-style batch (base offset 0) with recognisable values "label-i". */
export function makeBatch(spec: BatchSpec = {}): Buffer {
  const count = spec.count ?? 1;
  const label = spec.label ?? 'r';
  return encodeRecordBatch({
    records: Array.from({ length: count }, (_, index) => ({
      key: Buffer.from(`k${index}`),
      value: Buffer.from(`${label}-${index}`.padEnd(spec.valueBytes ?? 0, '.')),
      timestampMs: spec.timestampsMs?.[index] ?? spec.timestampMs ?? 1_700_000_000_000,
    })),
    producerId: spec.producerId ?? -1n,
    producerEpoch: spec.producerEpoch ?? -1,
    baseSequence: spec.baseSequence ?? -1,
  });
}

/** Records every log line, so tests can assert on warnings. */
export class RecordingLogger implements LogSink {
  readonly lines: { level: string; message: string; fields?: Record<string, unknown> }[] = [];
  info(message: string, fields?: Record<string, unknown>) {
    this.lines.push({ level: 'info', message, fields });
  }
  warn(message: string, fields?: Record<string, unknown>) {
    this.lines.push({ level: 'warn', message, fields });
  }
  error(message: string, fields?: Record<string, unknown>) {
    this.lines.push({ level: 'error', message, fields });
  }
}

/** A write held back by {@link FaultPlan.holdNextAtomicWrite}. */
export interface HeldWrite {
  /** Resolves once the write was asked for and is waiting. */
  readonly reached: Promise<void>;
  /** Lets the write go on. */
  release(): void;
  /** Whether the write has finished (written, or failed). */
  readonly finished: boolean;
}

/**
 * Counts disk operations and fails those a test selects, through the storage choke point; it can
 * also hold an atomic file write back, as a slow disk does, so a test can act while it is under way.
 */
export class FaultPlan {
  readonly counts = new Map<StorageOperation, number>();
  failing: { operation?: StorageOperation; pathIncludes: string; errno: string } | undefined;
  #holds: { pathIncludes: string; arrive: () => void; released: Promise<void>; finish: () => void }[] = [];

  readonly injector: FaultInjector = (operation, path) => {
    this.counts.set(operation, (this.counts.get(operation) ?? 0) + 1);
    const failing = this.failing;
    if (!failing) return undefined;
    if (failing.operation && failing.operation !== operation) return undefined;
    return path.includes(failing.pathIncludes) ? failing.errno : undefined;
  };

  count(operation: StorageOperation): number {
    return this.counts.get(operation) ?? 0;
  }

  /** Holds the next atomic write (temporary file, then rename) whose path includes `pathIncludes`. */
  holdNextAtomicWrite(pathIncludes: string): HeldWrite {
    let arrive = () => {};
    const reached = new Promise<void>((resolve) => {
      arrive = resolve;
    });
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const held = { finished: false, reached, release };
    this.#holds.push({
      pathIncludes,
      arrive,
      released,
      finish: () => {
        held.finished = true;
      },
    });
    return held;
  }

  readonly beforeAtomicWrite: AtomicWriteHook = (path) => {
    const index = this.#holds.findIndex((hold) => path.includes(hold.pathIncludes));
    if (index < 0) return undefined;
    const [hold] = this.#holds.splice(index, 1);
    hold!.arrive();
    return { released: hold!.released, finished: hold!.finish };
  };
}

export function logConfig(overrides: Partial<LogConfig> = {}): LogConfig {
  return { ...DEFAULT_LOG_CONFIG, flushMs: 10, ...overrides };
}

/** A manager on the real disk (through `faults`, if given) that the test can also crash. */
export function createManager(
  dataDirectory: string,
  overrides: Partial<Omit<LogManagerOptions, 'dataDirectory' | 'io'>> & {
    config?: Partial<LogConfig>;
    /** A FaultPlan, or just an injector of one's own. */
    faults?: Partial<Pick<FaultPlan, 'injector' | 'beforeAtomicWrite'>>;
  } = {},
): CrashableLogManager {
  const { config, faults, ...options } = overrides;
  return new CrashableLogManager(
    { dataDirectory, defaultConfig: logConfig(config), ...options },
    faults?.injector,
    faults?.beforeAtomicWrite,
  );
}

/**
 * Makes a stopped data directory say that nothing was ever flushed: the recovery-point checkpoint
 * and every partition's flushed-point file go. Damage the test then makes stands for a torn tail.
 */
export async function forgetFlushedPoints(dataDirectory: string): Promise<void> {
  await rm(join(dataDirectory, 'recovery-point-offset-checkpoint'), { force: true });
  for (const entry of await readdir(dataDirectory, { withFileTypes: true })) {
    if (entry.isDirectory()) await rm(join(dataDirectory, entry.name, FLUSHED_POINT_FILE), { force: true });
  }
}
