import {
  type Client,
  type ConsumerRecord,
  GroupConsumer,
  type OffsetToCommit,
  WeirError,
} from '@weir/protocol';
import { type ConsumeDeps, ConsumePrinter } from './consume-printer';
import type { OutputFormat } from './record-format';

/** The longest single poll: how quickly an idle consumer notices `--timeout-ms` or Ctrl-C. */
const POLL_WAIT_MS = 1000;

export interface ConsumeGroupOptions {
  topic: string;
  groupId: string;
  /** Where partitions without a committed offset start. */
  autoOffsetReset: 'earliest' | 'latest';
  maxMessages?: number;
  format: OutputFormat;
  printKey: boolean;
  timeoutMs?: number;
}

/**
 * `weir consume <topic> --group <g>`: reads as a member of a consumer group and commits after each
 * batch is written, so a later run with the same group resumes after the last record printed.
 */
export async function consumeGroupCommand(
  client: Client,
  options: ConsumeGroupOptions,
  deps: ConsumeDeps,
): Promise<undefined> {
  const consumer = new GroupConsumer(client, {
    groupId: options.groupId,
    autoCommit: false,
    autoOffsetReset: options.autoOffsetReset,
    maxWaitMs: POLL_WAIT_MS,
  });
  const printer = new ConsumePrinter(options, deps, consumer);
  try {
    consumer.subscribe([options.topic]);
    while (!printer.done) {
      const waitMs = printer.pollWaitMs(POLL_WAIT_MS);
      if (waitMs === undefined) break;
      const shown = await printer.print(await consumer.poll({ maxWaitMs: waitMs }));
      if (shown.length === 0) continue;
      // Only what was printed is committed: records cut off by --max-messages are read next time.
      await consumer.commit(nextOffsets(shown)).catch((error: unknown) => {
        // A rebalance ended the generation: the new owner reads these records again (at least once).
        if (!(error instanceof WeirError)) throw error;
      });
    }
  } finally {
    await consumer.close();
  }
  printer.summarize();
}

function nextOffsets(records: readonly ConsumerRecord[]): OffsetToCommit[] {
  const last = new Map<string, OffsetToCommit>();
  for (const record of records) {
    last.set(`${record.topic}\u0000${record.partition}`, {
      topic: record.topic,
      partition: record.partition,
      offset: record.offset + 1n,
    });
  }
  return [...last.values()];
}
