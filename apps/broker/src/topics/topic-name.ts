/** Kafka's limit: a partition directory name (`<topic>-<partition>`) must fit in 255 bytes. */
export const MAX_TOPIC_NAME_LENGTH = 249;

const LEGAL_TOPIC_NAME = /^[a-zA-Z0-9._-]+$/;

/** Why a topic name is not allowed, or undefined when it is. Same rules as Kafka's Topic.validate. */
export function topicNameProblem(name: string): string | undefined {
  if (name.length === 0) return 'the topic name is empty';
  if (name === '.' || name === '..') return `the topic name "${name}" is not allowed`;
  if (name.length > MAX_TOPIC_NAME_LENGTH) {
    return `the topic name is ${name.length} characters long; the maximum is ${MAX_TOPIC_NAME_LENGTH}`;
  }
  if (!LEGAL_TOPIC_NAME.test(name)) {
    return `the topic name "${name}" may contain only ASCII letters, digits, '.', '_' and '-'`;
  }
  return undefined;
}

/**
 * Metric names replace '.' with '_', so Kafka refuses topics whose names differ only there
 * ("a.b" and "a_b"). Returns the existing topic that collides with `name`, if any.
 */
export function collidingTopic(name: string, existing: Iterable<string>): string | undefined {
  const normalized = name.replaceAll('.', '_');
  for (const other of existing) {
    if (other !== name && other.replaceAll('.', '_') === normalized) return other;
  }
  return undefined;
}

/** Internal topics of the coordinators: hidden from plain listings, created by the broker. */
export const INTERNAL_TOPICS: ReadonlySet<string> = new Set(['__consumer_offsets', '__transaction_state']);
