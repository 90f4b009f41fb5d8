import type { Writable } from 'node:stream';
import type { ConsumerRecord } from '@weir/protocol';
import { OutputSink } from './output-sink';
import { formatRecord, type OutputFormat } from './record-format';

/** How consumed records are printed and when printing stops, for both consume commands. */
export interface PrintOptions {
  maxMessages?: number;
  format: OutputFormat;
  printKey: boolean;
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
 * The printing side of `weir consume`, with or without `--group`: it stops on Ctrl-C (closing the
 * consumer, so a poll in flight ends), on a closed output pipe, at `--max-messages` and after
 * `--timeout-ms` without a record, and prints each poll's records in one write.
 */
export class ConsumePrinter {
  readonly #options: PrintOptions;
  readonly #deps: ConsumeDeps;
  readonly #sink: OutputSink;
  #stopped = false;
  #count = 0;
  #idleSinceMs: number;

  constructor(options: PrintOptions, deps: ConsumeDeps, consumer: { close(): Promise<void> }) {
    this.#options = options;
    this.#deps = deps;
    this.#sink = new OutputSink(deps.stdout);
    void deps.stopRequested.then(() => {
      this.#stopped = true;
      void consumer.close();
    });
    this.#idleSinceMs = deps.nowMs();
  }

  /** Whether Ctrl-C stopped consuming (the consumer is closed, or closing). */
  get stopped(): boolean {
    return this.#stopped;
  }

  /** Whether to poll no more: stopped, the pipe closed, or `--max-messages` printed. */
  get done(): boolean {
    const { maxMessages } = this.#options;
    return this.#stopped || this.#sink.broken || (maxMessages !== undefined && this.#count >= maxMessages);
  }

  /**
   * How long the next poll may wait: at most `longestMs`, and no longer than `--timeout-ms` allows.
   * Undefined, after saying so, once `--timeout-ms` has passed without a record.
   */
  pollWaitMs(longestMs: number): number | undefined {
    const { timeoutMs } = this.#options;
    const idleLeftMs =
      timeoutMs === undefined ? longestMs : this.#idleSinceMs + timeoutMs - this.#deps.nowMs();
    if (idleLeftMs <= 0) {
      this.#deps.stderr.write(`No record for ${timeoutMs} ms; stopping.\n`);
      return undefined;
    }
    return Math.min(longestMs, idleLeftMs);
  }

  /** Prints the records `--max-messages` still allows, and answers with them. */
  async print(records: readonly ConsumerRecord[]): Promise<ConsumerRecord[]> {
    const { maxMessages, format, printKey } = this.#options;
    const shown = records.slice(0, maxMessages === undefined ? undefined : maxMessages - this.#count);
    if (shown.length > 0) {
      // One write per poll keeps a fast topic from costing a syscall per record.
      await this.#sink.write(Buffer.concat(shown.map((record) => formatRecord(record, format, printKey))));
      this.#count += shown.length;
      this.#idleSinceMs = this.#deps.nowMs();
    }
    return shown;
  }

  /** The summary line, on stderr so it stays out of piped output. */
  summarize(): void {
    this.#deps.stderr.write(`Consumed ${this.#count} records.\n`);
  }
}
