import type { ApiVersions, CreateTopics, RequestOf } from '@weir/protocol';

/** An ApiVersions body; the software name and version matter only from v3, where they must be valid. */
export function apiVersionsBody(): RequestOf<typeof ApiVersions> {
  return { clientSoftwareName: 'weir-raw-test', clientSoftwareVersion: '1.0' };
}

/** A CreateTopics v4 body for single-replica topics, with each topic's config overrides if any. */
export function createTopicsBody(
  topics: { name: string; partitions: number; configs?: Record<string, string> }[],
): RequestOf<typeof CreateTopics> {
  return {
    topics: topics.map((topic) => ({
      name: topic.name,
      numPartitions: topic.partitions,
      replicationFactor: 1,
      assignments: [],
      configs: Object.entries(topic.configs ?? {}).map(([name, value]) => ({ name, value })),
    })),
    timeoutMs: 10_000,
    validateOnly: false,
  };
}
