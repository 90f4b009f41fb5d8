import type { Producer, ProducerMessage } from '@weir/protocol';

/**
 * Keeps a bounded amount of produced data unacknowledged. The producer queues whatever `send` is
 * given, so reading a large file without a bound would hold all of it in memory; past
 * `maxPendingBytes` the next send first waits for the oldest one. Sends keep their call order (the
 * producer guarantees it), and the first failure is remembered and thrown by the next call.
 */
export class SendWindow {
  readonly #producer: Producer;
  readonly #topic: string;
  readonly #maxPendingBytes: number;
  readonly #pending: { settled: Promise<void>; bytes: number }[] = [];
  #pendingBytes = 0;
  #failure: { error: unknown } | undefined;
  #storedRecords = 0;

  constructor(producer: Producer, topic: string, maxPendingBytes: number) {
    this.#producer = producer;
    this.#topic = topic;
    this.#maxPendingBytes = maxPendingBytes;
  }

  /** Records the broker has acknowledged (with acks=0: records handed to the socket). */
  get storedRecords(): number {
    return this.#storedRecords;
  }

  async send(messages: readonly ProducerMessage[], bytes: number): Promise<void> {
    this.#throwIfFailed();
    const settled = this.#producer.send({ topic: this.#topic, messages }).then(
      () => {
        this.#storedRecords += messages.length;
      },
      (error: unknown) => {
        this.#failure ??= { error };
      },
    );
    this.#pending.push({ settled, bytes });
    this.#pendingBytes += bytes;
    while (this.#pendingBytes > this.#maxPendingBytes && this.#failure === undefined) {
      const oldest = this.#pending.shift();
      if (oldest === undefined) break;
      await oldest.settled;
      this.#pendingBytes -= oldest.bytes;
    }
    this.#throwIfFailed();
  }

  /** Waits for every send so far; throws the first failure. */
  async drain(): Promise<void> {
    await Promise.all(this.#pending.splice(0).map((entry) => entry.settled));
    this.#pendingBytes = 0;
    this.#throwIfFailed();
  }

  #throwIfFailed(): void {
    if (this.#failure !== undefined) throw this.#failure.error;
  }
}
