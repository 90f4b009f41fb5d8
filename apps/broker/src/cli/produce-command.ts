import type { Readable, Writable } from 'node:stream';
import { type Client, type CompressionType, Producer } from '@weir/protocol';
import { formatBytes } from './byte-size';
import { LineSplitter } from './line-splitter';
import type { ProduceInput } from './produce-input';
import { type LineFormat, lineToMessage } from './produce-line';
import { requireProducibleTopic } from './producible-topic';
import { ProgressLine } from './progress-line';
import { SendWindow } from './send-window';

/** Produced bytes not yet acknowledged before reading pauses: enough to keep batches full. */
const MAX_PENDING_BYTES = 16 * 1024 * 1024;

export interface ProduceOptions {
  topic: string;
  /** Read this file instead of stdin. */
  file?: string;
  keySeparator?: Buffer;
  headers: readonly [string, string][];
  partition?: number;
  compression: CompressionType;
  acks: -1 | 0 | 1;
}

export interface ProduceDeps {
  stdin: Readable & { isTTY?: boolean };
  stderr: Writable & { isTTY?: boolean };
  openFile: (path: string) => Promise<ProduceInput>;
  nowMs: () => number;
  /** Resolves on Ctrl-C: reading stops, and the lines already read are still sent. */
  stopRequested: Promise<unknown>;
}

/**
 * `weir produce`: one record per input line, from stdin or `--file`. Each chunk of input is sent as
 * soon as it is read, so lines typed at a terminal go out one by one while a file goes out in full
 * batches. A summary goes to stderr; on a terminal, files also get a progress line.
 */
export async function produceCommand(
  client: Client,
  options: ProduceOptions,
  deps: ProduceDeps,
): Promise<undefined> {
  const input: ProduceInput =
    options.file === undefined
      ? { stream: deps.stdin, sizeBytes: undefined }
      : await deps.openFile(options.file);
  try {
    await requireProducibleTopic(client, options.topic);
    if (options.file === undefined && deps.stdin.isTTY === true) {
      deps.stderr.write('Type one record per line; Ctrl-D sends the last one and ends.\n');
    }
    const producer = new Producer(client, { acks: options.acks, compression: options.compression });
    const window = new SendWindow(producer, options.topic, MAX_PENDING_BYTES);
    const progress =
      input.sizeBytes !== undefined && deps.stderr.isTTY === true
        ? new ProgressLine(deps.stderr, input.sizeBytes, deps.nowMs)
        : undefined;
    const startMs = deps.nowMs();
    let readBytes = 0;
    try {
      readBytes = await sendLines(input.stream, window, lineFormat(options), deps.stopRequested, (bytes) =>
        progress?.update(bytes, window.storedRecords),
      );
      await window.drain();
      await producer.close();
    } finally {
      progress?.clear();
      const seconds = ((deps.nowMs() - startMs) / 1000).toFixed(2);
      deps.stderr.write(
        `Produced ${window.storedRecords} records (${formatBytes(readBytes)} of input) to "${options.topic}" in ${seconds} s.\n`,
      );
    }
  } finally {
    input.stream.destroy();
  }
}

function lineFormat(options: ProduceOptions): LineFormat {
  return {
    keySeparator: options.keySeparator,
    headers: options.headers.map(([key, value]) => ({ key, value })),
    partition: options.partition,
  };
}

/**
 * Reads the input to its end (or until stopped) and sends its lines; returns the bytes read. A
 * last line without a newline is sent at the end of input, but not after Ctrl-C, where it may be
 * half typed.
 */
async function sendLines(
  stream: Readable,
  window: SendWindow,
  format: LineFormat,
  stopRequested: Promise<unknown>,
  onRead: (readBytes: number) => void,
): Promise<number> {
  const splitter = new LineSplitter();
  let readBytes = 0;
  let stopped = false;
  void stopRequested.then(() => {
    stopped = true;
    stream.destroy();
  });
  const send = (lines: Buffer[], bytes: number): Promise<void> =>
    lines.length === 0
      ? Promise.resolve()
      : window.send(
          lines.map((line) => lineToMessage(line, format)),
          bytes,
        );
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      readBytes += chunk.length;
      await send(splitter.push(chunk), chunk.length);
      onRead(readBytes);
    }
  } catch (error) {
    // Destroying the stream to stop ends the loop with a premature-close error; that is the stop.
    if (!stopped) throw error;
  }
  if (!stopped) await send(splitter.end(), 0);
  onRead(readBytes);
  return readBytes;
}
