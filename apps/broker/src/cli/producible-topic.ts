import { type Client, ErrorCode, errorForCode } from '@weir/protocol';

/**
 * Checks that a topic can be produced to before reading any input, asking the broker to create it
 * if its `auto.create.topics.enable` allows (as Kafka's console producer does). The client would
 * otherwise treat UNKNOWN_TOPIC_OR_PARTITION as retriable and only fail after all its retries; a
 * user who mistyped the name should know at once. A topic still being created (LEADER_NOT_AVAILABLE)
 * is fine: the producer waits for it.
 */
export async function requireProducibleTopic(client: Client, topic: string): Promise<void> {
  const snapshot = await client.refreshMetadata([topic], {
    allowAutoTopicCreation: client.allowAutoTopicCreation,
  });
  const code =
    snapshot.topics.find((candidate) => candidate.name === topic)?.errorCode ??
    ErrorCode.UNKNOWN_TOPIC_OR_PARTITION;
  if (code === ErrorCode.NONE || code === ErrorCode.LEADER_NOT_AVAILABLE) return;
  throw errorForCode(code, `Topic "${topic}".`);
}
