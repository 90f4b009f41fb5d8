import { ErrorCode } from '@weir/protocol';
import { describe, expect, it } from 'vitest';
import { TransactionFinisher } from './transaction-finisher';
import type { TransactionStore } from './transaction-log';
import { newTransactionMetadata, transition } from './transaction-metadata';
import type { TransactionRecord } from './transaction-records';
import { TransactionTable } from './transaction-table';

/** Notes every state the coordinator writes, with whether the write waited for an fdatasync. */
class RecordingStore implements TransactionStore {
  readonly partitionCount = 1;

  constructor(private readonly events: string[]) {}

  async ensureCreated(): Promise<void> {}

  async write(
    _partition: number,
    _leaderEpoch: number,
    records: readonly TransactionRecord[],
    options: { durable: boolean },
  ) {
    for (const record of records) this.events.push(`${record.value?.state} durable=${options.durable}`);
  }
}

const quiet = { info: () => undefined, warn: () => undefined };
const observer = { openTransactionsChanged: () => undefined, transactionCompleted: () => undefined };

function finisherOver(table: TransactionTable, events: string[]) {
  return new TransactionFinisher({
    table,
    markers: {
      async writeMarkers(request) {
        events.push(`markers ${request.result}`);
        return request.partitions.map((partition) => ({ ...partition, errorCode: ErrorCode.NONE }));
      },
    },
    offsets: { applyTransactionalOffsets: async () => ErrorCode.NONE },
    scheduler: { nowMs: () => 1000, schedule: () => () => undefined },
    logger: quiet,
    observer,
    completionRetryMs: 1000,
    coordinatorEpoch: 0,
    running: () => true,
  });
}

describe('TransactionFinisher', () => {
  it.each([
    ['PrepareCommit', 'CompleteCommit', 'commit'],
    ['PrepareAbort', 'CompleteAbort', 'abort'],
  ] as const)(
    'makes %s durable before the markers and writes %s without its own fdatasync',
    async (prepare, complete, result) => {
      const events: string[] = [];
      const table = new TransactionTable({
        store: new RecordingStore(events),
        partition: 0,
        leaderEpoch: 0,
        leads: () => true,
        logger: quiet,
        openCountChanged: () => undefined,
      });
      const ongoing = newTransactionMetadata('tx', {
        producerId: 7n,
        producerEpoch: 0,
        timeoutMs: 60_000,
        nowMs: 0,
      });
      transition(ongoing, 'Ongoing', 0);
      ongoing.partitions.set('t\u00000', { topic: 't', partition: 0 });
      table.install(ongoing);

      const finisher = finisherOver(table, events);
      expect(await finisher.prepareAndComplete(ongoing, prepare)).toBe(ErrorCode.NONE);

      expect(events).toEqual([`${prepare} durable=true`, `markers ${result}`, `${complete} durable=false`]);
      expect(table.get('tx')?.state).toBe(complete);
    },
  );
});
