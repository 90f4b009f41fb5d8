import type { Writable } from 'node:stream';
import {
  Admin,
  type Client,
  Consumer,
  type ConsumerRecord,
  ErrorCode,
  errorForCode,
  type TopicDescription,
} from '@weir/protocol';
import { OutputSink } from './output-sink';
import { partitionRanges } from './partition-ranges';
import { formatRecord, type OutputFormat } from './record-format';
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

export interface ConsumeDeps {
  stdout: Writable;
  stderr: Writable;
  nowMs: () => number;
  /** Resolves on Ctrl-C: consuming stops and the summary is printed. */
  stopRequested: Promise<unknown>;
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
  const sink = new OutputSink(deps.stdout);
  let stopped = false;
  void deps.stopRequested.then(() => {
    stopped = true;
    void consumer.close();
  });
  let count = 0;
  let idleSinceMs = deps.nowMs();
  const reachedMax = (): boolean => options.maxMessages !== undefined && count >= options.maxMessages;
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
    while (!stopped && !sink.broken && !reachedMax() && !(options.exitAtEnd && unfinished.size === 0)) {
      const idleLeftMs =
        options.timeoutMs === undefined ? POLL_WAIT_MS : idleSinceMs + options.timeoutMs - deps.nowMs();
      if (idleLeftMs <= 0) {
        deps.stderr.write(`No record for ${options.timeoutMs} ms; stopping.\n`);
        break;
      }
      const records = (await consumer.poll({ maxWaitMs: Math.min(POLL_WAIT_MS, idleLeftMs) })).filter(wanted);
      const shown = records.slice(
        0,
        options.maxMessages === undefined ? undefined : options.maxMessages - count,
      );
      if (shown.length > 0) {
        // One write per poll keeps a fast topic from costing a syscall per record.
        await sink.write(
          Buffer.concat(shown.map((record) => formatRecord(record, options.format, options.printKey))),
        );
        count += shown.length;
        idleSinceMs = deps.nowMs();
      }
      if (options.exitAtEnd) {
        for (const [partition, end] of unfinished) {
          const position = stopped ? undefined : consumer.position(options.topic, partition);
          if (position !== undefined && position >= end) unfinished.delete(partition);
        }
      }
    }
  } finally {
    await consumer.close();
  }
  deps.stderr.write(`Consumed ${count} records.\n`);
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
