import type { ClusterSetup } from './bench-setups';
import { increase, scrapeMetrics, sumByLabel } from './prometheus-samples';

/** Per broker: Kafka requests by API and error answers by code, from the broker's `/metrics`. */
export type RequestCounts = Map<number, { requests: Map<string, number>; errors: Map<string, number> }>;

export async function requestCounts(cluster: ClusterSetup): Promise<RequestCounts> {
  const counts: RequestCounts = new Map();
  for (const broker of cluster.brokers.brokers) {
    const families = await scrapeMetrics(broker.metricsUrl);
    counts.set(broker.nodeId, {
      requests: sumByLabel(families, 'weir_requests_total', 'api'),
      errors: sumByLabel(families, 'weir_request_errors_total', 'error'),
    });
  }
  return counts;
}

/**
 * Says how the SDK's requests reached the brokers between two counts: Produce and Fetch requests
 * per broker and the routing errors they were answered with. A client that sends everything to
 * its bootstrap broker would show every Produce at one broker and NOT_LEADER_OR_FOLLOWER answers.
 */
export function describeRouting(before: RequestCounts, after: RequestCounts): string {
  const parts: string[] = [];
  let routingErrors = 0;
  for (const [nodeId, counts] of after) {
    const earlier = before.get(nodeId);
    const requests = increase(earlier?.requests ?? new Map(), counts.requests);
    const errors = increase(earlier?.errors ?? new Map(), counts.errors);
    routingErrors +=
      (errors.get('NOT_LEADER_OR_FOLLOWER') ?? 0) + (errors.get('UNKNOWN_TOPIC_OR_PARTITION') ?? 0);
    parts.push(
      `broker ${nodeId}: ${requests.get('Produce') ?? 0} Produce, ${requests.get('Fetch') ?? 0} Fetch`,
    );
  }
  return `${parts.join('; ')}; NOT_LEADER_OR_FOLLOWER or UNKNOWN_TOPIC_OR_PARTITION answers: ${routingErrors}`;
}

/** How many partitions of `topic` each broker leads, by the cluster's Metadata. */
export async function leaderSpread(cluster: ClusterSetup, topic: string): Promise<string> {
  const snapshot = await cluster.client.refreshMetadata([topic]);
  const partitions = snapshot.topics.find((entry) => entry.name === topic)?.partitions ?? [];
  const led = new Map<number, number>();
  for (const partition of partitions) led.set(partition.leaderId, (led.get(partition.leaderId) ?? 0) + 1);
  return [...led]
    .sort(([left], [right]) => left - right)
    .map(([nodeId, count]) => `broker ${nodeId} leads ${count}`)
    .join(', ');
}
