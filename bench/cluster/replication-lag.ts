import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Admin, Client, Producer } from '@weir/protocol';
import { LAG_POLL_INTERVAL_MS, MIN_INSYNC_REPLICAS, REPLICATION_FACTOR } from './cluster-config';

/** The probe's topic: one partition per broker, so with luck each broker leads one. */
export const LAG_PROBE_TOPIC = 'bench-replication-lag-probe';
const LAG_PROBE_PARTITIONS = 3;
/** A probe record whose high watermark has not passed it by then counts as this long (and fails the run). */
const LAG_PROBE_TIMEOUT_MS = 30_000;

/**
 * Replication lag as a client sees it: the time from a record's acks=1 acknowledgement by its
 * leader to the leader's high watermark passing it, that is until every in-sync follower has
 * fetched it, fdatasynced it and said so in its next fetch (docs/architecture.md §6.5). One 100 B
 * record at a time goes to the probe topic (RF 3), partition after partition, and the leader's
 * high watermark is polled with ListOffsets (`latest`) every LAG_POLL_INTERVAL_MS, so a sample is
 * up to one interval plus one round trip long. While a produce run loads the cluster, the probe
 * partitions share the followers' fetch sessions (one per leader broker) with the loaded topic.
 * It is not the leader's per-follower lag (`FollowerLag.lagMs`, which the broker does not export
 * on this branch) but what acks=all and consumers wait for.
 */
export class ReplicationLagProbe {
  readonly #client: Client;
  readonly #admin: Admin;
  readonly #producer: Producer;
  #running: Promise<number[]> | undefined;
  #stopping = false;

  constructor(bootstrapServers: readonly string[]) {
    this.#client = new Client({ bootstrapServers: [...bootstrapServers] });
    this.#admin = new Admin(this.#client);
    this.#producer = new Producer(this.#client, { acks: 1 });
  }

  async createTopic(): Promise<void> {
    await this.#admin.createTopics([
      {
        name: LAG_PROBE_TOPIC,
        partitions: LAG_PROBE_PARTITIONS,
        replicationFactor: REPLICATION_FACTOR,
        configs: { 'min.insync.replicas': String(MIN_INSYNC_REPLICAS) },
      },
    ]);
  }

  /** Starts probing until `stop`, which returns the samples in milliseconds. */
  start(): void {
    if (this.#running !== undefined) throw new Error('the lag probe is already running');
    this.#stopping = false;
    this.#running = this.#probe();
  }

  async stop(): Promise<number[]> {
    this.#stopping = true;
    const samples = (await this.#running) ?? [];
    this.#running = undefined;
    return samples;
  }

  /** Probes for `seconds` and returns the samples. */
  async sampleFor(seconds: number): Promise<number[]> {
    this.start();
    await sleep(seconds * 1000);
    return this.stop();
  }

  async #probe(): Promise<number[]> {
    const samples: number[] = [];
    for (let index = 0; !this.#stopping; index++) {
      const partition = index % LAG_PROBE_PARTITIONS;
      const [sent] = await this.#producer.send({
        topic: LAG_PROBE_TOPIC,
        messages: [{ partition, value: Buffer.alloc(100, 0x61) }],
      });
      const acknowledgedMs = performance.now();
      for (;;) {
        const [answer] = await this.#admin.listOffsets([
          { topic: LAG_PROBE_TOPIC, partition, spec: 'latest' },
        ]);
        const elapsedMs = performance.now() - acknowledgedMs;
        if (answer !== undefined && answer.offset > sent!.offset) {
          samples.push(elapsedMs);
          break;
        }
        if (elapsedMs > LAG_PROBE_TIMEOUT_MS)
          throw new Error(
            `the high watermark of ${LAG_PROBE_TOPIC}-${partition} did not pass offset ${sent!.offset} in ${LAG_PROBE_TIMEOUT_MS} ms`,
          );
        await sleep(LAG_POLL_INTERVAL_MS);
      }
    }
    return samples;
  }

  async close(): Promise<void> {
    this.#stopping = true;
    await this.#running?.catch(() => undefined);
    await this.#producer.close();
    await this.#client.close();
  }
}
