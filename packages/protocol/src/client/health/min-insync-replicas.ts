import type { Admin } from '../admin';

/** min.insync.replicas when a topic's configs cannot be read: Kafka's default. */
export const DEFAULT_MIN_INSYNC_REPLICAS = 1;

/**
 * Each topic's min.insync.replicas, in one DescribeConfigs; topics whose value could not be read
 * are left out, for the caller to judge with {@link DEFAULT_MIN_INSYNC_REPLICAS}.
 */
export async function readMinInsyncReplicas(
  admin: Pick<Admin, 'describeConfigs'>,
  topics: readonly string[],
): Promise<Map<string, number>> {
  const values = new Map<string, number>();
  if (topics.length === 0) return values;
  try {
    const described = await admin.describeConfigs(
      topics.map((name) => ({ type: 'topic' as const, name, keys: ['min.insync.replicas'] })),
      {},
    );
    for (const description of described) {
      const entry = description.configs.find((config) => config.name === 'min.insync.replicas');
      const value = Number(entry?.value);
      if (Number.isInteger(value) && value > 0) values.set(description.name, value);
    }
  } catch {
    // Without the configs the states that need min.insync.replicas use Kafka's default of 1;
    // offline and under-replicated partitions are still found from the metadata.
  }
  return values;
}
