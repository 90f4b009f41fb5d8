import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeRecordBatch } from '@weir/protocol';
import { DEFAULT_LOG_CONFIG, type LogConfig } from '../src/log/log-config';
import { LogManager, type LogManagerOptions, type LogSink } from '../src/log/log-manager';
import type { Clock } from '../src/log/partition-log';
import { createStorageIo, type FaultInjector, type StorageOperation } from '../src/log/storage';

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

/** A temporary data directory, removed by `cleanup`. */
export async function temporaryDirectory(
  prefix = 'weir-log-',
): Promise<{ path: string; cleanup: () => Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), prefix));
  return { path, cleanup: () => rm(path, { recursive: true, force: true }) };
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

/** Counts disk operations and fails those a test selects, through the storage choke point. */
export class FaultPlan {
  readonly counts = new Map<StorageOperation, number>();
  failing: { operation?: StorageOperation; pathIncludes: string; errno: string } | undefined;

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
}

export function logConfig(overrides: Partial<LogConfig> = {}): LogConfig {
  return { ...DEFAULT_LOG_CONFIG, flushMs: 10, ...overrides };
}

export function createManager(
  dataDirectory: string,
  overrides: Partial<LogManagerOptions> & { config?: Partial<LogConfig>; faults?: FaultPlan } = {},
): LogManager {
  return new LogManager({
    dataDirectory,
    defaultConfig: logConfig(overrides.config),
    io: createStorageIo({ faults: overrides.faults?.injector }),
    ...overrides,
  });
}
