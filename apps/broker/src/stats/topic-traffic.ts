/** What clients produced to and fetched from one topic since the last {@link TopicTraffic.take}. */
export interface TopicTrafficCounts {
  recordsIn: number;
  bytesIn: number;
  recordsOut: number;
  bytesOut: number;
}

/**
 * Per-topic traffic counted on the produce and fetch paths (one map lookup and four additions per
 * call) and taken by the history sampler at each sampling. Replication is not counted: the replica
 * layer reports client traffic only, as for the metrics.
 */
export class TopicTraffic {
  #counts = new Map<string, TopicTrafficCounts>();

  produced(topic: string, bytes: number, records: number): void {
    const counts = this.#countsOf(topic);
    counts.bytesIn += bytes;
    counts.recordsIn += records;
  }

  fetched(topic: string, bytes: number, records: number): void {
    const counts = this.#countsOf(topic);
    counts.bytesOut += bytes;
    counts.recordsOut += records;
  }

  /** The counts since the previous call, by topic; the counters start again from zero. */
  take(): Map<string, TopicTrafficCounts> {
    const taken = this.#counts;
    this.#counts = new Map();
    return taken;
  }

  #countsOf(topic: string): TopicTrafficCounts {
    let counts = this.#counts.get(topic);
    if (counts === undefined) {
      counts = { recordsIn: 0, bytesIn: 0, recordsOut: 0, bytesOut: 0 };
      this.#counts.set(topic, counts);
    }
    return counts;
  }
}
