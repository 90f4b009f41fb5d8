import { ErrorCode } from '../errors/error-codes';
import { errorForCode, WeirError } from '../errors/weir-error';
import type { Client } from './client';

/** A request item about one partition. */
export interface PartitionItem {
  readonly topic: string;
  readonly partition: number;
}

/** One partition's part of a leader's answer: a value, or an error code. */
export type PartitionAnswer<R> =
  | { readonly errorCode: 0; readonly value: R }
  | { readonly errorCode: number };

/** A map key for a topic-partition. */
export function partitionKey(topic: string, partition: number): string {
  return `${topic}\u0000${partition}`;
}

/**
 * Sends partition-level requests (ListOffsets, DeleteRecords) to each partition's leader, one
 * request per leader, all leaders at once. Partitions whose leader moved or is unknown are asked
 * again after a metadata refresh within the client's retry bounds; any other failure is that
 * partition's answer, and when the retries run out the partitions still open get the last error.
 * `ask` sends one request and returns the answers keyed by {@link partitionKey}.
 */
export async function askPartitionLeaders<Q extends PartitionItem, R>(
  client: Client,
  items: readonly Q[],
  ask: (leaderId: number, items: readonly Q[]) => Promise<Map<string, PartitionAnswer<R>>>,
): Promise<Map<string, R | WeirError>> {
  const results = new Map<string, R | WeirError>();
  const open = () => items.filter((item) => !results.has(partitionKey(item.topic, item.partition)));
  try {
    await client.retry(async () => {
      const pending = open();
      const topics = await client.topicsMetadata(pending.map((item) => item.topic));
      const byLeader = new Map<number, Q[]>();
      let retry: WeirError | undefined;
      for (const item of pending) {
        const key = partitionKey(item.topic, item.partition);
        const topic = topics.get(item.topic);
        const partition = topic?.partitions[item.partition];
        if (topic === undefined || topic.errorCode !== ErrorCode.NONE || partition === undefined) {
          const code = topic?.errorCode || ErrorCode.UNKNOWN_TOPIC_OR_PARTITION;
          const error = errorForCode(code, `${item.topic}-${item.partition}.`);
          // A topic being created answers LEADER_NOT_AVAILABLE: worth another look.
          if (error.retriable && code !== ErrorCode.UNKNOWN_TOPIC_OR_PARTITION) retry = error;
          else results.set(key, error);
          continue;
        }
        if (partition.leaderId < 0) {
          retry = new WeirError(ErrorCode.LEADER_NOT_AVAILABLE, {
            detail: `${item.topic}-${item.partition}.`,
          });
          client.invalidateMetadata(item.topic);
          continue;
        }
        const list = byLeader.get(partition.leaderId) ?? [];
        list.push(item);
        byLeader.set(partition.leaderId, list);
      }
      const settled = await Promise.allSettled(
        [...byLeader].map(async ([leaderId, list]) => {
          const answers = await ask(leaderId, list);
          for (const item of list) {
            const key = partitionKey(item.topic, item.partition);
            const answer = answers.get(key);
            if (answer === undefined) {
              const detail = `the answer of node ${leaderId} does not mention ${item.topic}-${item.partition}.`;
              results.set(key, new WeirError(ErrorCode.UNKNOWN_SERVER_ERROR, { detail }));
            } else if (answer.errorCode === ErrorCode.NONE && 'value' in answer) {
              results.set(key, answer.value);
            } else {
              const error = errorForCode(answer.errorCode, `${item.topic}-${item.partition}.`);
              if (!error.retriable) results.set(key, error);
              else {
                retry = error;
                client.invalidateMetadata(item.topic);
              }
            }
          }
        }),
      );
      for (const outcome of settled) if (outcome.status === 'rejected') throw outcome.reason;
      if (retry !== undefined) throw retry;
    });
  } catch (error) {
    if (!(error instanceof WeirError)) throw error;
    for (const item of open()) results.set(partitionKey(item.topic, item.partition), error);
  }
  return results;
}
