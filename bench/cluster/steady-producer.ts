import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, Producer } from '@weir/protocol';

/** One acknowledged or failed send of the steady producer, in performance.now() time. */
export interface Send {
  startedMs: number;
  endedMs: number;
  ok: boolean;
}

/**
 * An idempotent acks=all SDK producer (the SDK's defaults otherwise) sending one record at a time
 * to partition 0 of `topic`, flat out, until stopped, keeping every send's times. One
 * send at a time: a producer starting a send every 10 ms, many unanswered over the kill, stalled
 * this benchmark in its first kill for minutes (some sends were never answered, so closing the
 * producer waited forever), which would measure that rather than the failover.
 */
export class SteadyProducer {
  readonly sends: Send[] = [];
  readonly #client: Client;
  readonly #producer: Producer;
  #running = true;
  readonly #loop: Promise<void>;

  constructor(
    bootstrapServers: readonly string[],
    private readonly topic: string,
  ) {
    this.#client = new Client({ bootstrapServers: [...bootstrapServers] });
    this.#producer = new Producer(this.#client, { acks: -1 });
    this.#loop = this.#send();
  }

  async #send(): Promise<void> {
    for (let index = 0; this.#running; index++) {
      const startedMs = performance.now();
      const ok = await this.#producer
        .send({ topic: this.topic, messages: [{ partition: 0, value: `steady-${index}` }] })
        .then(
          () => true,
          () => false,
        );
      this.sends.push({ startedMs, endedMs: performance.now(), ok });
      if (!ok) await sleep(10);
    }
  }

  /** The first acknowledgement of a send started at or after `sinceMs`. */
  firstAckedSince(sinceMs: number): Send | undefined {
    return this.sends.find((send) => send.ok && send.startedMs >= sinceMs);
  }

  async close(): Promise<void> {
    this.#running = false;
    await this.#loop;
    await this.#producer.close();
    await this.#client.close();
  }

  /** The round trips of the sends acknowledged between two times, in ms. */
  latenciesBetween(fromMs: number, toMs: number): number[] {
    return this.sends
      .filter((send) => send.ok && send.startedMs >= fromMs && send.endedMs <= toMs)
      .map((send) => send.endedMs - send.startedMs);
  }
}
