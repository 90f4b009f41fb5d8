import { connect, type Socket } from 'node:net';
import { ApiVersions, encodeRequestFrame, Fetch, Metadata } from '@weir/protocol';
// The wire fuzzer's frame generator and the raw test connection live with the broker's tests; the
// benchmark drives the same frames rather than a second copy of them.
import { fuzzConnections } from '../../apps/broker/test/fuzz-frames';
import { fetchBody, RawConnection } from '../../apps/broker/test/raw-socket';

/** A running background load: stop it and wait until its connections are gone. */
export interface BackgroundLoad {
  /** Requests (or fuzzed frames) it has sent so far. */
  readonly sent: () => number;
  stop(): Promise<void>;
}

/** How long one request of a background load may wait before that connection gives up. */
const LOAD_REQUEST_TIMEOUT_MS = 60_000;

/** `connections` clients, each looping ApiVersions then Metadata (all topics) as fast as answered. */
export async function metadataLoop(port: number, connections: number): Promise<BackgroundLoad> {
  const opened = await Promise.all(
    Array.from({ length: connections }, () => RawConnection.open(port, 30_000)),
  );
  let running = true;
  let sent = 0;
  const loops = opened.map(async (connection) => {
    while (running) {
      await connection.request(
        ApiVersions,
        2,
        { clientSoftwareName: 'bench-load', clientSoftwareVersion: '1' },
        LOAD_REQUEST_TIMEOUT_MS,
      );
      await connection.request(
        Metadata,
        4,
        {
          topics: null,
          allowAutoTopicCreation: false,
          includeClusterAuthorizedOperations: false,
          includeTopicAuthorizedOperations: false,
        },
        LOAD_REQUEST_TIMEOUT_MS,
      );
      sent += 2;
    }
  });
  return {
    sent: () => sent,
    async stop() {
      running = false;
      await Promise.all(loops);
      await Promise.all(opened.map((connection) => connection.destroy()));
    },
  };
}

/**
 * `consumers` clients that each ask for a whole partition from offset 0 (max_bytes and the
 * partition's max bytes 2^31−1) and read the answer slowly: `bytesPerTick` from the socket every
 * `tickMs`, the rest left in the kernel and the broker. Each asks again once its answer is in.
 */
export async function slowConsumers(
  port: number,
  topic: string,
  consumers: number,
  options: { tickMs: number; bytesPerTick: number },
): Promise<BackgroundLoad> {
  const body = fetchBody(topic, 0, 0n);
  body.maxBytes = 0x7fffffff;
  body.topics[0]!.partitions[0]!.partitionMaxBytes = 0x7fffffff;
  let running = true;
  let sent = 0;
  const sockets: Socket[] = [];
  const finished: Promise<void>[] = [];
  for (let index = 0; index < consumers; index++) {
    const socket = connect({ host: '127.0.0.1', port });
    // A small receive window keeps the kernel from reading ahead for the slow reader.
    socket.setNoDelay(true);
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    socket.on('error', () => {});
    finished.push(new Promise<void>((resolve) => socket.once('close', () => resolve())));
    let correlationId = 0;
    let expectedBytes = -1;
    let receivedBytes = 0;
    let header = Buffer.alloc(0);
    let budget = 0;
    const ask = () => {
      expectedBytes = -1;
      receivedBytes = 0;
      header = Buffer.alloc(0);
      socket.write(encodeRequestFrame(Fetch, 11, correlationId++, 'bench-slow', body));
      sent += 1;
    };
    socket.on('data', (chunk: Buffer) => {
      if (expectedBytes < 0) {
        header = Buffer.concat([header, chunk.subarray(0, 4)]);
        if (header.length >= 4) expectedBytes = header.readInt32BE(0) + 4;
      }
      receivedBytes += chunk.length;
      budget -= chunk.length;
      if (budget <= 0) socket.pause();
      if (expectedBytes >= 0 && receivedBytes >= expectedBytes && running) ask();
    });
    const timer = setInterval(() => {
      budget = options.bytesPerTick;
      socket.resume();
    }, options.tickMs);
    socket.once('close', () => clearInterval(timer));
    socket.pause();
    ask();
  }
  return {
    sent: () => sent,
    async stop() {
      running = false;
      for (const socket of sockets) socket.destroy();
      await Promise.all(finished);
    },
  };
}

/** The wire fuzzer's frames, `parallel` connections at a time, over and over until stopped. */
export function fuzzLoad(port: number, seed: number, parallel: number): BackgroundLoad {
  let running = true;
  let sent = 0;
  let round = 0;
  const worker = async (workerIndex: number) => {
    while (running) {
      const connections = fuzzConnections(seed + round++ * parallel + workerIndex, 'fuzz-target', 2_000, 8);
      for (const frames of connections) {
        if (!running) return;
        await new Promise<void>((resolve) => {
          const socket = connect({ host: '127.0.0.1', port });
          socket.on('data', () => {});
          socket.on('error', () => {});
          socket.once('close', () => resolve());
          socket.end(Buffer.concat(frames.map((frame) => frame.bytes)));
        });
        sent += frames.length;
      }
    }
  };
  const workers = Array.from({ length: parallel }, (_, index) => worker(index));
  return {
    sent: () => sent,
    async stop() {
      running = false;
      await Promise.all(workers);
    },
  };
}
