import { statfs } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { ReplicaManager } from '../replica/replica-manager';

/** The partitions a DescribeLogDirs request asks about: null for all of them. */
export type LogDirFilter = readonly { topic: string; partitions: readonly number[] }[] | null;

/** One partition replica in a log directory, as DescribeLogDirs reports it. */
export interface LogDirPartition {
  partition: number;
  sizeBytes: number;
  /** How far this replica's log end is behind the high watermark it knows; 0 for a leader. */
  offsetLag: number;
}

/** A log directory: its absolute path, the replicas in it, and the file system's size and free space. */
export interface LogDirDescription {
  path: string;
  topics: { name: string; partitions: LogDirPartition[] }[];
  /** The file system's size and the bytes an unprivileged writer may still use; -1 when statfs fails. */
  totalBytes: number;
  usableBytes: number;
}

/** How the file system's size and free space are read; `statfs` of node:fs by default. */
export type FileSystemStats = (path: string) => Promise<{ totalBytes: number; usableBytes: number }>;

async function statfsBytes(path: string): Promise<{ totalBytes: number; usableBytes: number }> {
  const stats = await statfs(path);
  return { totalBytes: stats.blocks * stats.bsize, usableBytes: stats.bavail * stats.bsize };
}

/**
 * The broker's log directories for DescribeLogDirs (docs/architecture.md §4). Weir keeps every
 * partition of a broker under one directory, `<dataDir>/logs`, so there is always exactly one.
 * Offset lag follows Kafka's rule for a current (not future) log: the high watermark this replica
 * knows minus its log end, never below 0. A leader's high watermark is never past its own log end,
 * so a leader's lag is 0; a follower's high watermark is the leader's as of its last fetch.
 */
export class LogDirsView {
  readonly #path: string;

  constructor(
    directory: string,
    private readonly replicas: Pick<ReplicaManager, 'localReplicas'>,
    private readonly fileSystemStats: FileSystemStats = statfsBytes,
  ) {
    this.#path = resolve(directory);
  }

  async describe(filter: LogDirFilter): Promise<LogDirDescription> {
    const wanted =
      filter === null
        ? null
        : new Map(filter.map((entry) => [entry.topic, new Set(entry.partitions)] as const));
    const topics = new Map<string, LogDirPartition[]>();
    for (const { topic, partition, state } of this.replicas.localReplicas()) {
      if (wanted !== null && !wanted.get(topic)?.has(partition)) continue;
      const { highWatermark, logEndOffset } = state.offsets;
      const row = {
        partition,
        sizeBytes: state.log.sizeBytes,
        offsetLag: Math.max(0, highWatermark - logEndOffset),
      };
      const rows = topics.get(topic);
      if (rows === undefined) topics.set(topic, [row]);
      else rows.push(row);
    }
    let space = { totalBytes: -1, usableBytes: -1 };
    try {
      space = await this.fileSystemStats(this.#path);
    } catch {
      // The sizes stay -1, Kafka's "unknown"; the partitions are still worth answering.
    }
    return {
      path: this.#path,
      topics: [...topics]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([name, partitions]) => ({
          name,
          partitions: partitions.sort((a, b) => a.partition - b.partition),
        })),
      ...space,
    };
  }
}
