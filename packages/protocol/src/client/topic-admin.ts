import { ErrorCode } from '../errors/error-codes';
import { errorForCode, WeirError } from '../errors/weir-error';
import { CreatePartitions } from '../messages/apis/create-partitions';
import { CreateTopics } from '../messages/apis/create-topics';
import { DeleteTopics } from '../messages/apis/delete-topics';
import { type AdminItemFailure, AdminItemsError, brokerError } from './admin-error';
import { missingAnswer, unique } from './admin-items';
import type {
  AdminTimeoutOptions,
  NewTopic,
  PartitionCountChange,
  TopicDescription,
  ValidateOnlyOptions,
} from './admin-types';
import type { Client } from './client';

/** An answer about one named item (topic) of a controller request. */
interface NamedAnswer {
  readonly name: string;
  readonly errorCode: number;
  readonly errorMessage?: string | null;
}

/** Partitions with leader, replicas and in-sync replicas, per topic, in the order asked. */
export async function describeTopics(client: Client, names: readonly string[]): Promise<TopicDescription[]> {
  unique('describeTopics', names);
  const snapshot = await client.refreshMetadata(names);
  const failures: AdminItemFailure[] = [];
  const descriptions: TopicDescription[] = [];
  for (const name of names) {
    const topic = snapshot.topics.find((candidate) => candidate.name === name);
    const code = topic === undefined ? ErrorCode.UNKNOWN_TOPIC_OR_PARTITION : topic.errorCode;
    if (topic === undefined || code !== ErrorCode.NONE) {
      failures.push({ item: name, error: errorForCode(code, `Topic "${name}".`) });
      continue;
    }
    descriptions.push({ name: topic.name, isInternal: topic.isInternal, partitions: topic.partitions });
  }
  if (failures.length > 0) throw new AdminItemsError('describeTopics', failures, names.length);
  return descriptions;
}

/** Creates topics at the controller. */
export async function createTopics(
  client: Client,
  topics: readonly NewTopic[],
  options: ValidateOnlyOptions & AdminTimeoutOptions,
): Promise<void> {
  await controllerItems(client, 'createTopics', topics, async (open) => {
    const response = await client.send('controller', CreateTopics, {
      topics: open.map((topic) => ({
        name: topic.name,
        // -1 asks for the broker's default (CreateTopics v4+), as the Java admin client does.
        numPartitions: topic.partitions ?? -1,
        replicationFactor: topic.replicationFactor ?? -1,
        assignments: [],
        configs: Object.entries(topic.configs ?? {}).map(([name, value]) => ({ name, value })),
      })),
      timeoutMs: options.timeoutMs ?? client.requestTimeoutMs,
      validateOnly: options.validateOnly ?? false,
    });
    return response.topics;
  });
}

/** Deletes topics at the controller. */
export async function deleteTopics(
  client: Client,
  names: readonly string[],
  options: AdminTimeoutOptions,
): Promise<void> {
  await controllerItems(
    client,
    'deleteTopics',
    names.map((name) => ({ name })),
    async (open) => {
      const response = await client.send('controller', DeleteTopics, {
        topicNames: open.map((topic) => topic.name),
        timeoutMs: options.timeoutMs ?? client.requestTimeoutMs,
      });
      return response.responses;
    },
  );
}

/** Raises topics' partition counts at the controller. */
export async function createPartitions(
  client: Client,
  changes: readonly PartitionCountChange[],
  options: ValidateOnlyOptions & AdminTimeoutOptions,
): Promise<void> {
  await controllerItems(
    client,
    'createPartitions',
    changes.map((change) => ({ name: change.topic, count: change.count })),
    async (open) => {
      const response = await client.send('controller', CreatePartitions, {
        topics: open.map((change) => ({ name: change.name, count: change.count, assignments: null })),
        timeoutMs: options.timeoutMs ?? client.requestTimeoutMs,
        validateOnly: options.validateOnly ?? false,
      });
      return response.results;
    },
  );
}

/**
 * Sends items to the controller, retrying those that fail retriably (NOT_CONTROLLER after a
 * controller move, …) and collecting the others' errors.
 */
async function controllerItems<T extends { readonly name: string }>(
  client: Client,
  operation: string,
  items: readonly T[],
  send: (open: readonly T[]) => Promise<readonly NamedAnswer[]>,
): Promise<void> {
  unique(
    operation,
    items.map((item) => item.name),
  );
  if (items.length === 0) return;
  const failures: AdminItemFailure[] = [];
  let open: readonly T[] = items;
  try {
    await client.retry(async () => {
      const answers = await send(open);
      const again: T[] = [];
      let retryWith: WeirError | undefined;
      for (const item of open) {
        const answer = answers.find((candidate) => candidate.name === item.name);
        if (answer === undefined) {
          failures.push({ item: item.name, error: missingAnswer(item.name) });
        } else if (answer.errorCode !== ErrorCode.NONE) {
          const error = brokerError(answer.errorCode, answer.errorMessage, `Topic "${item.name}".`);
          if (error.retriable) {
            again.push(item);
            retryWith = error;
          } else {
            failures.push({ item: item.name, error });
          }
        }
      }
      open = again;
      if (retryWith !== undefined) throw retryWith;
    });
  } catch (error) {
    // A failure of the whole request, before any item was answered, is thrown as it is.
    if (!(error instanceof WeirError) || (open === items && failures.length === 0)) throw error;
    for (const item of open) failures.push({ item: item.name, error });
  } finally {
    for (const item of items) client.invalidateMetadata(item.name);
  }
  if (failures.length > 0) throw new AdminItemsError(operation, failures, items.length);
}
