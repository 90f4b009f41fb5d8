import { join } from 'node:path';
import type { BrokerConfig } from '../config/broker-config';
import {
  type CheckOptions,
  checkPartitionLog,
  listPartitionDirectories,
  type PartitionCheck,
} from '../log/log-check';
import type { LogConfig } from '../log/log-config';
import { partitionDirectoryName } from '../log/log-files';
import { checkpointKey, RECOVERY_POINT_FILE, readOffsetCheckpoint } from '../log/offset-checkpoint';
import type { StorageIo } from '../log/storage';
import { logConfigFor } from '../topics/topic-configs';
import { UsageError } from './usage-error';

/** A stopped broker's logs directory, as `weir log check|repair` read it. */
export interface OfflineLogs {
  io: StorageIo;
  logsDirectory: string;
  /** The recovery-point checkpoint; undefined when the file is unreadable. */
  recoveryPoints: Map<string, number> | undefined;
  /** The effective log config of a topic: the broker's defaults and the topic's stored overrides. */
  configFor(topic: string): LogConfig;
}

/** Opens `<dataDir>/logs` of the configured data directory, with topic configs from metadata.json. */
export async function openOfflineLogs(config: BrokerConfig, io: StorageIo): Promise<OfflineLogs> {
  const logsDirectory = join(config.dataDir, 'logs');
  try {
    await io.listDirectory(logsDirectory);
  } catch {
    throw new UsageError(`no partition logs in ${logsDirectory}; is --data-dir the broker's data directory?`);
  }
  const topicConfigs = await readTopicConfigs(io, join(config.dataDir, 'metadata.json'));
  return {
    io,
    logsDirectory,
    recoveryPoints: await readOffsetCheckpoint(io, join(logsDirectory, RECOVERY_POINT_FILE)),
    configFor: (topic) => logConfigFor(config, topicConfigs.get(topic) ?? {}),
  };
}

/**
 * The topic configs stored in the metadata file, for the index settings a repair rebuilds with. An
 * unreadable file leaves the broker's defaults, which only change where index entries fall.
 */
async function readTopicConfigs(io: StorageIo, path: string): Promise<Map<string, Record<string, string>>> {
  const configs = new Map<string, Record<string, string>>();
  try {
    const parsed = JSON.parse((await io.readWholeFile(path)).toString('utf8')) as {
      topics?: { name?: unknown; configs?: unknown }[];
    };
    for (const topic of parsed.topics ?? []) {
      if (typeof topic.name === 'string' && topic.configs && typeof topic.configs === 'object') {
        configs.set(topic.name, topic.configs as Record<string, string>);
      }
    }
  } catch {
    // Defaults it is.
  }
  return configs;
}

/** The partitions a command names: one, or every one in the directory with `--all`. */
export async function selectPartitions(
  logs: OfflineLogs,
  selection: { topic?: string; partition?: number; all: boolean },
): Promise<{ topic: string; partition: number; directory: string }[]> {
  if (selection.all) {
    if (selection.topic !== undefined)
      throw new UsageError('give either <topic> <partition> or --all, not both');
    return listPartitionDirectories(logs.io, logs.logsDirectory);
  }
  if (selection.topic === undefined || selection.partition === undefined) {
    throw new UsageError('give <topic> <partition>, or --all');
  }
  const { topic, partition } = selection;
  const directory = join(logs.logsDirectory, partitionDirectoryName(topic, partition));
  try {
    await logs.io.listDirectory(directory);
  } catch {
    throw new UsageError(`${topic}-${partition} has no log in ${logs.logsDirectory}`);
  }
  return [{ topic, partition, directory }];
}

export function checkOne(
  logs: OfflineLogs,
  target: { topic: string; partition: number; directory: string },
): Promise<PartitionCheck> {
  const config = logs.configFor(target.topic);
  const options: CheckOptions = {
    io: logs.io,
    ...target,
    checkpointRecoveryPoint: logs.recoveryPoints?.get(checkpointKey(target.topic, target.partition)),
    indexIntervalBytes: config.indexIntervalBytes,
    maxIndexBytes: config.maxIndexBytes,
  };
  return checkPartitionLog(options);
}

/** A partition argument: a non-negative integer. */
export function parsePartition(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text)) throw new UsageError(`partition must be a non-negative integer, got "${text}"`);
  return Number(text);
}
