import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  Admin,
  Client,
  Consumer,
  Producer,
  type ProducerMessage,
  TransactionalProducer,
} from '@weir/protocol';
import { benchValue, Window } from '../broker/phase';
import { type ServiceChild, startServiceChild } from '../broker/run-child';
import { runBenchMain } from '../harness/run-bench-main';
import { type Column, formatCount, formatRate, formatTable } from '../harness/table';

/**
 * `npm run bench:txn`: committed-transaction throughput of the SDK's TransactionalProducer with
 * 10, 100 and 1,000 records per transaction, beside non-transactional (idempotent, acks=all)
 * produce of the same records, against one broker in a child process, in one run. Target (issue
 * 7): at 1,000 records per transaction, at least 50% of the non-transactional throughput.
 */

const VALUE_BYTES = 100;
const PARTITIONS = 4;
/** Records per `send` call, for both producers. */
const RECORDS_PER_SEND = 100;
/** The non-transactional producer keeps this many sends in flight, as a streaming app would. */
const SENDS_IN_FLIGHT = 16;
const BASELINE_RECORDS = 400_000;
/** A transactional measure stops here if MEASURE_SECONDS has not passed yet. */
const MAX_TRANSACTIONAL_RECORDS = 1_000_000;
const RECORDS_PER_TRANSACTION = [10, 100, 1000] as const;
/** Each transactional measure runs this long (whole transactions). */
const MEASURE_SECONDS = 4;
const WARMUP_RECORDS = 20_000;
const TARGET_RATIO = 0.5;
/** The whole run is killed after this long. */
const RUN_TIMEOUT_MS = 150_000;

interface Measure {
  records: number;
  seconds: number;
  transactions: number;
}

function messages(count: number, value: Buffer): ProducerMessage[] {
  return Array.from({ length: count }, () => ({ value }));
}

async function createTopic(client: Client, name: string): Promise<void> {
  await new Admin(client).createTopics([{ name, partitions: PARTITIONS, replicationFactor: 1 }]);
}

/** Idempotent acks=all produce of `count` records with a window of sends in flight. */
async function plainProduce(client: Client, topic: string, count: number, value: Buffer): Promise<Measure> {
  const producer = new Producer(client, { acks: -1 });
  const chunk = messages(RECORDS_PER_SEND, value);
  const window = new Window(SENDS_IN_FLIGHT);
  const startMs = performance.now();
  try {
    for (let sent = 0; sent < count; sent += RECORDS_PER_SEND)
      await window.add(producer.send({ topic, messages: chunk }));
    await window.drain();
    return { records: count, seconds: (performance.now() - startMs) / 1000, transactions: 0 };
  } finally {
    await producer.close();
  }
}

/**
 * Transactions of `perTransaction` records, one after the other (each one's sends in flight
 * together, then commit), for MEASURE_SECONDS or until `maxRecords`.
 */
async function transactionalProduce(
  client: Client,
  topic: string,
  perTransaction: number,
  value: Buffer,
  maxRecords: number,
  seconds: number,
): Promise<Measure> {
  const producer = new TransactionalProducer(client, { transactionalId: `bench-${topic}` });
  const chunk = messages(Math.min(perTransaction, RECORDS_PER_SEND), value);
  const sendsPerTransaction = Math.ceil(perTransaction / chunk.length);
  await producer.initTransactions();
  const startMs = performance.now();
  const endMs = startMs + seconds * 1000;
  let records = 0;
  let transactions = 0;
  try {
    while (records + perTransaction <= maxRecords && performance.now() < endMs) {
      producer.beginTransaction();
      const sends: Promise<unknown>[] = [];
      for (let index = 0; index < sendsPerTransaction; index++)
        sends.push(producer.send({ topic, messages: chunk }));
      await producer.commitTransaction();
      await Promise.all(sends);
      records += perTransaction;
      transactions++;
    }
    return { records, seconds: (performance.now() - startMs) / 1000, transactions };
  } finally {
    await producer.close();
  }
}

/**
 * Checks a transactional topic: nothing open (the last stable offset is the high watermark) and
 * every committed record there for a read_committed reader.
 */
async function verifyCommitted(client: Client, topic: string, expected: number): Promise<void> {
  const ends = await new Admin(client).topicOffsets(topic);
  const consumer = new Consumer(client, { maxWaitMs: 100 });
  let seen = 0;
  try {
    consumer.assign(ends.map(({ partition }) => ({ topic, partition, offset: 'earliest' as const })));
    const deadlineMs = performance.now() + 30_000;
    while (!ends.every(({ partition, latest }) => (consumer.position(topic, partition) ?? -1n) >= latest)) {
      if (performance.now() > deadlineMs) throw new Error(`${topic}: read_committed did not reach the end`);
      seen += (await consumer.poll()).length;
    }
  } finally {
    await consumer.close();
  }
  if (seen !== expected) throw new Error(`${topic}: ${seen} committed records read, ${expected} sent`);
}

function row(
  measure: string,
  result: Measure,
  baselineRate: number | undefined,
  target: string,
  verdict: string,
) {
  const rate = result.records / result.seconds;
  return [
    measure,
    formatCount(result.records),
    result.transactions === 0 ? '-' : formatCount(result.transactions),
    result.transactions === 0 ? '-' : formatRate((result.seconds * 1000) / result.transactions),
    formatRate(result.seconds),
    formatCount(rate),
    formatRate((rate * VALUE_BYTES) / 1e6),
    baselineRate === undefined ? '(baseline)' : `${formatCount((100 * rate) / baselineRate)}%`,
    target,
    verdict,
  ];
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(join(os.tmpdir(), 'weir-bench-txn-'));
  let broker: ServiceChild<{ port: number }> | undefined;
  try {
    // flush.ms is moot here: acks=all (both producers) answers only after fdatasync.
    broker = await startServiceChild('weir-broker', { dataDir, flushMs: 1000 }, 30_000);
    const bootstrap = `127.0.0.1:${broker.value.port}`;
    console.error(`broker pid ${broker.pid} on ${bootstrap}, data in ${dataDir}`);
    const client = new Client({ bootstrapServers: [bootstrap], clientId: 'bench-txn' });
    const value = benchValue(VALUE_BYTES);
    try {
      for (const topic of [
        'warmup',
        'plain-before',
        'plain-after',
        ...RECORDS_PER_TRANSACTION.map((n) => `txn-${n}`),
      ])
        await createTopic(client, topic);
      console.error('warming up…');
      await plainProduce(client, 'warmup', WARMUP_RECORDS, value);
      await transactionalProduce(client, 'warmup', 100, value, WARMUP_RECORDS, 1);

      console.error(`non-transactional produce of ${formatCount(BASELINE_RECORDS)} × ${VALUE_BYTES} B…`);
      const before = await plainProduce(client, 'plain-before', BASELINE_RECORDS, value);
      const transactional = new Map<number, Measure>();
      for (const perTransaction of RECORDS_PER_TRANSACTION) {
        console.error(`transactions of ${perTransaction} records for ${MEASURE_SECONDS} s…`);
        const measure = await transactionalProduce(
          client,
          `txn-${perTransaction}`,
          perTransaction,
          value,
          MAX_TRANSACTIONAL_RECORDS,
          MEASURE_SECONDS,
        );
        await verifyCommitted(client, `txn-${perTransaction}`, measure.records);
        transactional.set(perTransaction, measure);
      }
      // Measured again after the transactions, so a drift of the machine shows in the table.
      const after = await plainProduce(client, 'plain-after', BASELINE_RECORDS, value);
      const baseline = {
        records: before.records + after.records,
        seconds: before.seconds + after.seconds,
        transactions: 0,
      };
      const baselineRate = baseline.records / baseline.seconds;

      const rows = [
        row('non-transactional, before the transactions', before, undefined, '', ''),
        row('non-transactional, after the transactions', after, undefined, '', ''),
        row('non-transactional, both runs (the baseline)', baseline, undefined, '', ''),
      ];
      for (const [perTransaction, measure] of transactional) {
        const ratio = measure.records / measure.seconds / baselineRate;
        const targeted = perTransaction === 1000;
        rows.push(
          row(
            `transactions of ${formatCount(perTransaction)} records`,
            measure,
            baselineRate,
            targeted ? `≥ ${TARGET_RATIO * 100}% of the baseline` : '(for reference)',
            targeted ? (ratio >= TARGET_RATIO ? 'met' : 'MISSED') : '',
          ),
        );
      }
      const columns: Column[] = [
        { title: 'measure' },
        { title: 'records', alignRight: true },
        { title: 'txns', alignRight: true },
        { title: 'ms/txn', alignRight: true },
        { title: 's', alignRight: true },
        { title: 'rec/s', alignRight: true },
        { title: 'MB/s', alignRight: true },
        { title: 'vs baseline', alignRight: true },
        { title: 'target' },
        { title: 'verdict' },
      ];
      console.log(
        `Weir transactions: SDK TransactionalProducer (one transaction at a time, its sends in flight together) vs ` +
          `SDK Producer (idempotent, acks=all, ${SENDS_IN_FLIGHT} sends in flight); ${RECORDS_PER_SEND} records per send, ` +
          `${VALUE_BYTES} B values, ${PARTITIONS} partitions, keyless; broker in a child process; ${os.cpus().length} CPUs`,
      );
      console.log(formatTable(columns, rows));
    } finally {
      await client.close();
    }
  } finally {
    await broker?.stop(10_000);
    await rm(dataDir, { recursive: true, force: true });
  }
}

runBenchMain(main, { name: 'txn', timeoutMs: RUN_TIMEOUT_MS, killing: 'the broker' });
