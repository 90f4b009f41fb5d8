import type { AclRule } from '../../security/acl/api-acl-rules';
import type { RequestAccess } from '../../security/acl/request-access';

/** A topic of a per-partition request, with its partitions as the wire carries them. */
interface WireTopic<Partition> {
  name: string;
  partitions: readonly Partition[];
}

/**
 * Answers every partition of every topic, in the request's order. The topic's rule is checked
 * once per topic: each partition of a denied topic gets `deniedAnswer` and never reaches `run`;
 * the others are run one at a time, so the service sees them in the order the client sent them.
 */
export async function answerTopicPartitions<Partition, Answer>(
  topics: readonly WireTopic<Partition>[],
  access: RequestAccess,
  rule: AclRule,
  run: (topic: string, partition: Partition) => Promise<Answer>,
  deniedAnswer: (partition: Partition) => Answer,
): Promise<{ name: string; partitions: Answer[] }[]> {
  const answers = [];
  for (const topic of topics) {
    const allowed = access.allows(rule, topic.name);
    const partitions = [];
    for (const partition of topic.partitions) {
      partitions.push(allowed ? await run(topic.name, partition) : deniedAnswer(partition));
    }
    answers.push({ name: topic.name, partitions });
  }
  return answers;
}
