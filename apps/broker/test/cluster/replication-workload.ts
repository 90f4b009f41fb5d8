// The workload of the replication fault tests (docs/architecture.md §10): idempotent kafkajs and
// kcat producers sending acks=all at a steady rate to chosen partitions, every acknowledgement
// recorded in a history (history-recorder.ts), then a final read of everything with kcat, judged
// by the checker in Jepsen's vocabulary.

import { execFile } from 'node:child_process';
import type { Producer } from 'kafkajs';
import { pollUntil } from '../group-fixtures';
import type { BrokerCluster } from './broker-cluster';
import { kafkaOf, kcatReadAll, type StoredAssignment, storedAssignment } from './cluster-clients';
import type { HistoryReport } from './history-checker';
import { HistoryRecorder } from './history-recorder';

export interface ReplicationWorkloadOptions {
  topic: string;
  partitions: readonly number[];
  /** Pause between one producer's sends, so the load is steady rather than flat out. */
  intervalMs?: number;
  /** Records per kcat invocation: each invocation's records are acknowledged together. */
  kcatBatch?: number;
}

export interface ReplicationWorkload {
  recorder: HistoryRecorder;
  /** Sends acknowledged so far. */
  acknowledged(): number;
  /** Stops sending and waits for the sends in flight. */
  stop(): Promise<void>;
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts one idempotent kafkajs producer and one kcat producer per partition, sending until stopped. */
export async function startReplicationWorkload(
  cluster: BrokerCluster,
  options: ReplicationWorkloadOptions,
): Promise<ReplicationWorkload> {
  const recorder = new HistoryRecorder();
  const intervalMs = options.intervalMs ?? 20;
  let running = true;
  let acknowledged = 0;
  const producers: Producer[] = [];
  const loops: Promise<void>[] = [];
  const newProducer = async (partition: number): Promise<Producer> => {
    const producer = kafkaOf(cluster, `workload-kafkajs-${partition}`).producer({
      idempotent: true,
      maxInFlightRequests: 1,
      retry: { retries: 30, initialRetryTime: 100, maxRetryTime: 1000 },
    });
    producers.push(producer);
    // Connecting may fail while a fault is on; the producer is then tried again until it connects.
    for (;;) {
      try {
        await producer.connect();
        return producer;
      } catch {
        if (!running) return producer;
        await delay(200);
      }
    }
  };
  for (const partition of options.partitions) {
    let producer = await newProducer(partition);
    loops.push(
      (async () => {
        for (let index = 0; running; index++) {
          const sent = await recorder.send(
            `kafkajs-${partition}`,
            producer,
            options.topic,
            partition,
            `j${partition}-${index}`,
          );
          if (sent.status === 'ok') acknowledged += 1;
          else {
            // kafkajs advances an idempotent producer's sequence only on success, so after a send
            // whose outcome it does not know (it may have been stored) the next send would reuse
            // that sequence with another value, and the broker rightly answers it as a duplicate
            // of the stored one, with that one's offset. Kafka's Java client bumps the producer's
            // epoch instead (KIP-360); a new producer id is the same here.
            await producer.disconnect().catch(() => undefined);
            producers.splice(producers.indexOf(producer), 1);
            producer = await newProducer(partition);
          }
          await delay(intervalMs);
        }
      })(),
    );
    loops.push(
      (async () => {
        const batch = options.kcatBatch ?? 5;
        for (let index = 0; running; index += batch) {
          const values = Array.from({ length: batch }, (_, offset) => `c${partition}-${index + offset}`);
          const ok = await kcatSend(cluster, options.topic, partition, values);
          for (const value of values) {
            recorder.recordSend({
              type: 'send',
              process: `kcat-${partition}`,
              status: ok ? 'ok' : 'unknown',
              partition,
              value,
            });
          }
          if (ok) acknowledged += values.length;
          await delay(intervalMs * batch);
        }
      })(),
    );
  }
  return {
    recorder,
    acknowledged: () => acknowledged,
    async stop() {
      running = false;
      await Promise.all(loops);
      await Promise.all(producers.map((producer) => producer.disconnect()));
    },
  };
}

/**
 * Sends `values` with an idempotent kcat (acks=all) through every broker; true when kcat exits
 * cleanly (every record delivered), false when it reports a failure or has to be stopped.
 */
function kcatSend(
  cluster: BrokerCluster,
  topic: string,
  partition: number,
  values: readonly string[],
): Promise<boolean> {
  return new Promise((resolve) => {
    const child = execFile(
      'kcat',
      [
        '-b',
        cluster.bootstrapServers.join(','),
        '-X',
        'broker.address.family=v4',
        '-X',
        'enable.idempotence=true',
        '-X',
        'acks=all',
        '-X',
        'message.timeout.ms=20000',
        '-P',
        '-t',
        topic,
        '-p',
        String(partition),
      ],
      { timeout: 40_000 },
    );
    child.on('exit', (code) => resolve(code === 0));
    child.on('error', () => resolve(false));
    child.stdin?.end(`${values.join('\n')}\n`);
  });
}

/**
 * Waits until every partition of `topic` has a leader and all its replicas in the ISR, so the
 * high watermark covers everything the leader has, then reads the whole topic with kcat into the
 * history as one final poll per partition, and returns the checker's report.
 */
export async function finalRead(
  cluster: BrokerCluster,
  topic: string,
  partitions: readonly number[],
  recorder: HistoryRecorder,
): Promise<HistoryReport> {
  await pollUntil(
    async () => {
      for (const partition of partitions) {
        const stored = (await storedAssignment(cluster, topic, partition)) as {
          leader: number;
          replicas: number[];
          isr?: number[];
        };
        if (stored.leader < 0 || (stored.isr ?? []).length !== stored.replicas.length) return false;
      }
      return true;
    },
    `every replica of ${topic} back in sync`,
    { timeoutMs: 120_000 },
  );
  const live = cluster.brokers.find((broker) => broker.isRunning) ?? cluster.broker(1);
  const lines = await kcatReadAll(live.bootstrap, topic);
  const byPartition = new Map<number, { offset: string; value: Buffer }[]>();
  for (const line of lines) {
    const [partition, offset, , value] = line.split(' ');
    const list = byPartition.get(Number(partition)) ?? [];
    list.push({ offset: offset!, value: Buffer.from(value ?? '') });
    byPartition.set(Number(partition), list);
  }
  for (const [partition, messages] of byPartition) recorder.polled('final-read', partition, messages);
  return recorder.check({ requireAllSeen: true });
}

/** The anomaly counts of a report that must all be zero, for one readable assertion. */
export function anomalyCounts(report: HistoryReport): Record<string, number> {
  return Object.fromEntries(Object.entries(report.counts).filter(([, count]) => count > 0));
}

/**
 * Waits until partition `partition` of `topic` has an assignment in etcd that `accept` takes, and
 * returns it; on a timeout the error carries the last assignment and every running broker's log.
 */
export async function assignmentWhere(
  cluster: BrokerCluster,
  topic: string,
  partition: number,
  what: string,
  accept: (assignment: StoredAssignment) => boolean,
): Promise<StoredAssignment> {
  let last: StoredAssignment | undefined;
  try {
    return await pollUntil(
      async () => {
        last = await storedAssignment(cluster, topic, partition);
        return accept(last) ? last : undefined;
      },
      what,
      { timeoutMs: 60_000, intervalMs: 100 },
    );
  } catch (error) {
    const logs = cluster.brokers
      .filter((broker) => broker.isRunning)
      .map((broker) => `--- broker ${broker.nodeId}\n${broker.process.output().slice(-20_000)}`);
    throw new Error(`${String(error)}; ${topic}-${partition} is ${JSON.stringify(last)}\n${logs.join('\n')}`);
  }
}

/** The stored assignments of `partitions` of `topic`, in that order. */
export function topicAssignments(
  cluster: BrokerCluster,
  topic: string,
  partitions: readonly number[],
): Promise<StoredAssignment[]> {
  return Promise.all(partitions.map((partition) => storedAssignment(cluster, topic, partition)));
}

/** Waits until every one of `partitions` has a leader and all three replicas in its ISR. */
export async function fullIsrOf(
  cluster: BrokerCluster,
  topic: string,
  partitions: readonly number[],
  what: string,
): Promise<StoredAssignment[]> {
  let last: StoredAssignment[] = [];
  try {
    return await pollUntil(
      async () => {
        last = await topicAssignments(cluster, topic, partitions);
        return last.every((a) => a.leader > 0 && a.isr.length === 3) ? last : undefined;
      },
      what,
      { timeoutMs: 120_000, intervalMs: 100 },
    );
  } catch (error) {
    throw new Error(`${String(error)}; assignments ${JSON.stringify(last)}`);
  }
}
