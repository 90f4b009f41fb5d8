import type { Writable } from 'node:stream';
import {
  type Client,
  type ConsumerRecord,
  GroupConsumer,
  type OffsetToCommit,
  WeirError,
} from '@weir/protocol';
import { OutputSink } from './output-sink';
import { formatRecord, type OutputFormat } from './record-format';

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

export interface ConsumeGroupDeps {
  stdout: Writable;
  stderr: Writable;
  nowMs: () => number;
  stopRequested: Promise<unknown>;
}

/**
 * `weir consume <topic> --group <g>`: reads as a member of a consumer group and commits after each
 * batch is written, so a later run with the same group resumes after the last record printed.
 */
export async function consumeGroupCommand(
  client: Client,
  options: ConsumeGroupOptions,
  deps: ConsumeGroupDeps,
): Promise<undefined> {
  const consumer = new GroupConsumer(client, {
    groupId: options.groupId,
    autoCommit: false,
    autoOffsetReset: options.autoOffsetReset,
    maxWaitMs: POLL_WAIT_MS,
  });
  const sink = new OutputSink(deps.stdout);
  let stopped = false;
  void deps.stopRequested.then(() => {
    stopped = true;
    void consumer.close();
  });
  let count = 0;
  let idleSinceMs = deps.nowMs();
  const reachedMax = (): boolean => options.maxMessages !== undefined && count >= options.maxMessages;
  try {
    consumer.subscribe([options.topic]);
    while (!stopped && !sink.broken && !reachedMax()) {
      const idleLeftMs =
        options.timeoutMs === undefined ? POLL_WAIT_MS : idleSinceMs + options.timeoutMs - deps.nowMs();
      if (idleLeftMs <= 0) {
        deps.stderr.write(`No record for ${options.timeoutMs} ms; stopping.\n`);
        break;
      }
      const records = await consumer.poll({ maxWaitMs: Math.min(POLL_WAIT_MS, idleLeftMs) });
      const shown = records.slice(
        0,
        options.maxMessages === undefined ? undefined : options.maxMessages - count,
      );
      if (shown.length === 0) continue;
      await sink.write(
        Buffer.concat(shown.map((record) => formatRecord(record, options.format, options.printKey))),
      );
      count += shown.length;
      idleSinceMs = deps.nowMs();
      // Only what was printed is committed: records cut off by --max-messages are read next time.
      await consumer.commit(nextOffsets(shown)).catch((error: unknown) => {
        // A rebalance ended the generation: the new owner reads these records again (at least once).
        if (!(error instanceof WeirError)) throw error;
      });
    }
  } finally {
    await consumer.close();
  }
  deps.stderr.write(`Consumed ${count} records.\n`);
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
