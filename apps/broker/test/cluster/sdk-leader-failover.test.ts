import { Admin, Client, Consumer, Producer } from '@weir/protocol';
import { describe, expect, it, onTestFinished } from 'vitest';
import { pollUntil } from '../group-fixtures';
import { type BrokerCluster, startBrokerCluster } from './broker-cluster';
import { kcatReadAll, storedAssignment } from './cluster-clients';
import { startEtcd } from './etcd-process';

/**
 * The SDK's producer and consumer follow a partition's leader across a kill -9 of it
 * (docs/architecture.md §3 and §6.5): the refused connections to the dead leader make them look the
 * leader up again until the cluster names its successor, so the send in flight at the kill is
 * stored there within its retry budget, by the same idempotent batch (stored once), and the
 * consumer goes on reading from the new leader.
 */

const TOPIC = 'sdk-failover';
const SESSION_TTL_SECONDS = 3;
/** Far below the SDK's default retry budget (retry.maxTotalMs 30 s), which the bug used up. */
const FAILOVER_BOUND_MS = 10_000;
const ACKS_AFTER_KILL = 20;
const TIMEOUT_MS = 180_000;

interface Send {
  readonly value: string;
  readonly startedMs: number;
  endedMs?: number;
  offset?: bigint;
  error?: unknown;
}

/** An idempotent acks=all SDK producer sending one record at a time, keeping every send. */
class SteadySender {
  readonly sends: Send[] = [];
  readonly #producer: Producer;
  #running = true;
  readonly #loop: Promise<void>;

  constructor(client: Client) {
    this.#producer = new Producer(client, { acks: -1 });
    this.#loop = this.#run();
  }

  async #run(): Promise<void> {
    for (let index = 0; this.#running; index++) {
      const send: Send = { value: `failover-${index}`, startedMs: Date.now() };
      this.sends.push(send);
      try {
        const [stored] = await this.#producer.send({
          topic: TOPIC,
          messages: [{ partition: 0, value: send.value }],
        });
        send.offset = stored!.offset;
      } catch (error) {
        send.error = error;
      }
      send.endedMs = Date.now();
    }
  }

  acked(): Send[] {
    return this.sends.filter((send) => send.offset !== undefined);
  }

  async stop(): Promise<void> {
    this.#running = false;
    await this.#loop;
    await this.#producer.close();
  }
}

/** An SDK consumer reading partition 0 from the start, keeping every value it sees. */
class Reader {
  readonly values: string[] = [];
  readonly #consumer: Consumer;
  readonly #loop: Promise<void>;

  constructor(client: Client) {
    const consumer = new Consumer(client);
    consumer.assign([{ topic: TOPIC, partition: 0, offset: 'earliest' }]);
    this.#consumer = consumer;
    this.#loop = (async () => {
      for await (const record of consumer) this.values.push(record.value!.toString());
    })();
  }

  async stop(): Promise<void> {
    await this.#consumer.close();
    await this.#loop;
  }
}

async function replicatedCluster(): Promise<BrokerCluster> {
  const etcd = await startEtcd();
  onTestFinished(() => etcd.stop());
  const cluster = await startBrokerCluster({
    etcd,
    brokers: 3,
    config: {
      cluster: { sessionTtlSeconds: SESSION_TTL_SECONDS, controllerTtlSeconds: SESSION_TTL_SECONDS },
    },
  });
  onTestFinished(() => cluster.stop());
  return cluster;
}

function sdkClient(cluster: BrokerCluster): Client {
  const client = new Client({ bootstrapServers: cluster.bootstrapServers });
  onTestFinished(() => client.close());
  return client;
}

describe('SDK clients across a kill -9 of the partition leader', () => {
  it(
    'the in-flight send is stored once on the new leader within the budget, and the consumer follows',
    async () => {
      const cluster = await replicatedCluster();
      const admin = new Admin(sdkClient(cluster));
      await admin.createTopics([
        { name: TOPIC, partitions: 1, replicationFactor: 3, configs: { 'min.insync.replicas': '2' } },
      ]);
      const leaderId = await pollUntil(async () => {
        const stored = await storedAssignment(cluster, TOPIC, 0).catch(() => undefined);
        return stored !== undefined && stored.leader > 0 && stored.isr.length === 3 ? stored.leader : 0;
      }, 'a leader with a full ISR');

      // Separate clients, so the consumer's lookups do not refresh the producer's metadata for it.
      const sender = new SteadySender(sdkClient(cluster));
      const reader = new Reader(sdkClient(cluster));
      onTestFinished(() => reader.stop());
      onTestFinished(() => sender.stop());
      await pollUntil(() => sender.acked().length >= 20, 'acknowledgements before the kill');
      await pollUntil(() => reader.values.length >= 20, 'records read before the kill');

      const killedMs = Date.now();
      await cluster.broker(leaderId).kill9();
      // The send that was on its way when the leader died (or the first one after it).
      const inFlight = sender.sends.find((send) => send.endedMs === undefined || send.endedMs >= killedMs)!;
      await pollUntil(() => inFlight.endedMs !== undefined, 'the in-flight send to settle', {
        timeoutMs: 60_000,
      });
      expect(inFlight.error).toBeUndefined();
      expect(inFlight.endedMs! - killedMs).toBeLessThan(FAILOVER_BOUND_MS);

      await pollUntil(
        () => sender.acked().filter((send) => send.startedMs >= killedMs).length >= ACKS_AFTER_KILL,
        'acknowledgements from the new leader',
      );
      await sender.stop();
      expect(sender.sends.filter((send) => send.error !== undefined)).toEqual([]);
      const acked = sender.acked().map((send) => send.value);

      // The consumer that was reading from the dead leader reads everything from its successor.
      await pollUntil(() => reader.values.includes(acked.at(-1)!), 'the consumer to read the last send', {
        timeoutMs: FAILOVER_BOUND_MS,
      });
      await reader.stop();
      expect(reader.values).toEqual(acked);

      // Nothing stored twice: each acknowledged value once in the new leader's log, in order.
      const survivor = cluster.brokers.find((broker) => broker.nodeId !== leaderId)!;
      const stored = (await kcatReadAll(survivor.bootstrap, TOPIC)).map((line) => line.split(' ').at(-1));
      expect(stored).toEqual(acked);
    },
    TIMEOUT_MS,
  );
});
