import type { Consumer, Kafka, Producer } from 'kafkajs';

/** The consumer timeouts a test gives the loop's consumers. */
export interface ConsumerConfigTimeouts {
  sessionTimeout: number;
  rebalanceTimeout: number;
  heartbeatInterval: number;
}

/** How one kafkajs call of the consume-process-produce loop failed, for the report. */
export interface LoopFailure {
  step: 'connect' | 'send' | 'sendOffsets' | 'commit' | 'abort';
  error: string;
}

function describeError(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  while (current instanceof Error && parts.length < 4) {
    const { type, code } = current as Error & { type?: string; code?: string };
    parts.push(`${current.name}${type ? ` ${type}` : ''}${code ? ` ${code}` : ''}: ${current.message}`);
    current =
      (current as Error & { cause?: unknown; originalError?: unknown }).cause ??
      (current as Error & { originalError?: unknown }).originalError;
  }
  return parts.join(' <- ');
}

/**
 * A transactional consume-process-produce loop as an application writes it with kafkajs: each
 * fetched batch of `in` is copied to `out` in one transaction that also commits the batch's
 * offsets (`sendOffsets`). When any call fails, the session ends and a new one starts with a new
 * producer and a new consumer — the only safe way kafkajs 2.2.4 allows: a failed `commit()`
 * leaves its producer in COMMITTING, from which kafkajs allows neither `abort()` nor a new
 * transaction, and the outcome of a commit that failed on the wire is unknown, so the input must
 * be re-read from the group's committed offsets. The new producer's InitProducerId fences the old
 * epoch (and waits, with CONCURRENT_TRANSACTIONS, until the coordinator finished the old
 * transaction), and it connects before the new consumer reads the committed offsets.
 */
export function startCopyLoop(
  kafka: Kafka,
  options: { groupId: string; transactionalId: string; consumerTimeouts: ConsumerConfigTimeouts },
) {
  const failures: LoopFailure[] = [];
  let commits = 0;
  let sessions = 0;
  let running = true;
  let current: { producer: Producer; consumer: Consumer; end: () => void } | undefined;

  const session = async (): Promise<void> => {
    sessions += 1;
    const producer = kafka.producer({
      transactionalId: options.transactionalId,
      idempotent: true,
      maxInFlightRequests: 1,
      transactionTimeout: 10_000,
    });
    const consumer = kafka.consumer({
      groupId: options.groupId,
      readUncommitted: false,
      ...options.consumerTimeouts,
    });
    let end: () => void = () => {};
    const broken = new Promise<void>((resolve) => {
      end = resolve;
    });
    const fail = (failure: LoopFailure) => {
      failures.push(failure);
      end();
    };
    current = { producer, consumer, end };
    let failed = false;
    const failOnce = (failure: LoopFailure) => {
      if (failed) return;
      failed = true;
      fail(failure);
    };
    try {
      await producer.connect();
      // kafkajs sends InitProducerId at the first transaction(), not at connect(): an empty
      // transaction fences the previous session before the new consumer reads committed offsets.
      await (await producer.transaction()).abort();
      await consumer.connect();
      await consumer.subscribe({ topic: 'in', fromBeginning: true });
      await consumer.run({
        autoCommit: false,
        eachBatchAutoResolve: false,
        eachBatch: async ({ batch, resolveOffset, heartbeat }) => {
          if (failed || !running || batch.isEmpty()) return;
          let step: LoopFailure['step'] = 'send';
          const transaction = await producer.transaction();
          try {
            await transaction.send({
              topic: 'out',
              messages: batch.messages.map((message) => ({ key: message.key, value: message.value })),
            });
            step = 'sendOffsets';
            await transaction.sendOffsets({
              consumerGroupId: options.groupId,
              topics: [
                {
                  topic: batch.topic,
                  partitions: [
                    { partition: batch.partition, offset: String(BigInt(batch.lastOffset()) + 1n) },
                  ],
                },
              ],
            });
            step = 'commit';
            await transaction.commit();
            commits += 1;
            // kafkajs fetches on from the resolved offset, even without autoCommit: without this
            // it fetches the same batch again and copies it again in the next transaction.
            resolveOffset(batch.lastOffset());
            await heartbeat();
          } catch (error) {
            failOnce({ step, error: describeError(error) });
            if (step !== 'commit') {
              await transaction
                .abort()
                .catch((abortError: unknown) =>
                  failures.push({ step: 'abort', error: describeError(abortError) }),
                );
            }
          }
        },
      });
    } catch (error) {
      failOnce({ step: 'connect', error: describeError(error) });
    }
    await broken;
    await consumer.disconnect().catch(() => {});
    await producer.disconnect().catch(() => {});
  };

  const done = (async () => {
    while (running) await session();
  })();
  return {
    commits: () => commits,
    sessions: () => sessions,
    failures,
    stop: async () => {
      running = false;
      // Ends the session in use: its consumer and producer disconnect (no transaction is open
      // between batches, and a batch in progress finishes first).
      current?.end();
      await done;
    },
  };
}
