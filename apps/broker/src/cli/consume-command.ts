import {
  Admin,
  type Client,
  Consumer,
  type ConsumerRecord,
  ErrorCode,
  errorForCode,
  type TopicDescription,
} from '@weir/protocol';
import { type ConsumeDeps, ConsumePrinter } from './consume-printer';
import { partitionRanges } from './partition-ranges';
import type { OutputFormat } from './record-format';
import type { StartPosition } from './start-position';

/**
 * The longest single poll. Polls end early when records arrive; this bound is how quickly an idle
 * consumer notices `--timeout-ms`, or a partition that reached its end without a record to show
 * for it (a position moved past control batches).
 */
const POLL_WAIT_MS = 1000;

export interface ConsumeOptions {
  topic: string;
  /** Only this partition; default all. */
  partition?: number;
  from: StartPosition;
  maxMessages?: number;
  format: OutputFormat;
  printKey: boolean;
  /** Stop once every partition reaches the end offset it had when reading began. */
  exitAtEnd: boolean;
  /** Stop after this long without a record. */
  timeoutMs?: number;
}

/**
 * `weir consume`: prints records of one topic's partitions, from `--from`, until stopped by
 * `--max-messages`, `--exit-at-end`, `--timeout-ms`, Ctrl-C or a closed output pipe. Records go to
 * stdout, one per line; the count goes to stderr at the end.
 */
export async function consumeCommand(
  client: Client,
  options: ConsumeOptions,
  deps: ConsumeDeps,
): Promise<undefined> {
  const admin = new Admin(client);
  const [topic] = await admin.describeTopics([options.topic]);
  const partitions = selectedPartitions(topic!, options.partition);
  const ranges = await partitionRanges(admin, options.topic, partitions, options.from);
  // Partitions still to read up to their end offset; with --exit-at-end, empty ranges are done already.
  const unfinished = new Map(
    ranges.filter((range) => !options.exitAtEnd || range.start < range.end).map((r) => [r.partition, r.end]),
  );
  const consumer = new Consumer(client, { maxWaitMs: POLL_WAIT_MS, autoOffsetReset: 'earliest' });
  const printer = new ConsumePrinter(options, deps, consumer);
  const wanted = (record: ConsumerRecord): boolean => {
    if (!options.exitAtEnd) return true;
    const end = unfinished.get(record.partition);
    return end !== undefined && record.offset < end;
  };
  try {
    consumer.assign(
      ranges
        .filter((range) => !options.exitAtEnd || unfinished.has(range.partition))
        .map((range) => ({ topic: options.topic, partition: range.partition, offset: range.start })),
    );
    while (!printer.done && !(options.exitAtEnd && unfinished.size === 0)) {
      const waitMs = printer.pollWaitMs(POLL_WAIT_MS);
      if (waitMs === undefined) break;
      await printer.print((await consumer.poll({ maxWaitMs: waitMs })).filter(wanted));
      if (options.exitAtEnd) {
        for (const [partition, end] of unfinished) {
          const position = printer.stopped ? undefined : consumer.position(options.topic, partition);
          if (position !== undefined && position >= end) unfinished.delete(partition);
        }
      }
    }
  } finally {
    await consumer.close();
  }
  printer.summarize();
}

/** The partitions to read: all of the topic's, or the one asked for if the topic has it. */
function selectedPartitions(topic: TopicDescription, partition: number | undefined): number[] {
  const all = topic.partitions.map((metadata) => metadata.partition);
  if (partition === undefined) return all;
  if (!all.includes(partition)) {
    throw errorForCode(
      ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
      `Topic "${topic.name}" has ${all.length} partition(s), so partition ${partition} does not exist.`,
    );
  }
  return [partition];
}
