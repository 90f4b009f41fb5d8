import { compareText } from '../operator/group-lag';
import {
  groupConsumedKey,
  groupLagKey,
  groupProducedKey,
  parsePartitionLagKey,
  partitionLagPrefix,
  type TopicTrafficMeasure,
  topicTrafficKey,
} from './history-keys';
import type { HistoryStore } from './history-store';

/** A group's history over one window; every series has one value per bucket (NaN: no sample). */
export interface GroupLagHistory {
  groupId: string;
  resolutionMs: number;
  startMs: number;
  totalLag: number[];
  consumedPerSecond: number[];
  producedPerSecond: number[];
  /** Sorted by topic, then partition; empty unless asked for. */
  partitions: { topic: string; partition: number; lag: number[] }[];
}

/** A topic's client traffic on this broker over one window, per second. */
export interface TopicThroughputHistory extends Record<TopicTrafficMeasure, number[]> {
  topic: string;
  resolutionMs: number;
  startMs: number;
}

/**
 * Reads the lag and throughput history (stats/history-sampler.ts) for the Weir-only history
 * APIs: the finest tier that reaches back to `sinceMs`, the same buckets for every series of an
 * answer, so the console can stack partitions and compare rates bucket by bucket. A group or
 * topic without history gets series of NaN, not an error: a deleted group keeps its history for
 * a day, and one not sampled yet simply has none.
 */
export class HistoryView {
  constructor(
    private readonly store: () => HistoryStore,
    private readonly clock: { nowMs(): number },
    /** How often the broker samples; -1 when the history is off. */
    readonly sampleIntervalMs: number,
  ) {}

  groupLagHistory(groupIds: readonly string[], sinceMs: number, withPartitions: boolean): GroupLagHistory[] {
    const store = this.store();
    const window = store.window(sinceMs, this.clock.nowMs());
    const byPrefix = new Map<string, string>();
    if (withPartitions) for (const groupId of groupIds) byPrefix.set(partitionLagPrefix(groupId), groupId);
    const partitionKeys = new Map<string, string[]>();
    if (byPrefix.size > 0) {
      for (const key of store.keys()) {
        if (!key.startsWith('["partition-lag"')) continue;
        for (const [prefix, groupId] of byPrefix) {
          if (!key.startsWith(prefix)) continue;
          partitionKeys.set(groupId, [...(partitionKeys.get(groupId) ?? []), key]);
        }
      }
    }
    return [...new Set(groupIds)].map((groupId) => {
      const totalLag = store.read(groupLagKey(groupId), window);
      const partitions = (partitionKeys.get(groupId) ?? [])
        .map((key) => ({ ...parsePartitionLagKey(key), lag: store.read(key, window).values }))
        .sort((left, right) => compareText(left.topic, right.topic) || left.partition - right.partition);
      return {
        groupId,
        resolutionMs: totalLag.resolutionMs,
        startMs: totalLag.startMs,
        totalLag: totalLag.values,
        consumedPerSecond: store.read(groupConsumedKey(groupId), window).values,
        producedPerSecond: store.read(groupProducedKey(groupId), window).values,
        partitions,
      };
    });
  }

  topicThroughputHistory(topics: readonly string[], sinceMs: number): TopicThroughputHistory[] {
    const store = this.store();
    const window = store.window(sinceMs, this.clock.nowMs());
    return [...new Set(topics)].map((topic) => {
      const recordsIn = store.read(topicTrafficKey(topic, 'recordsIn'), window);
      return {
        topic,
        resolutionMs: recordsIn.resolutionMs,
        startMs: recordsIn.startMs,
        recordsIn: recordsIn.values,
        recordsOut: store.read(topicTrafficKey(topic, 'recordsOut'), window).values,
        bytesIn: store.read(topicTrafficKey(topic, 'bytesIn'), window).values,
        bytesOut: store.read(topicTrafficKey(topic, 'bytesOut'), window).values,
      };
    });
  }
}
