import { createServer, type Server, type Socket } from 'node:net';
import type { Consumer } from '../../src/client/consumer';
import type { ConsumerRecord } from '../../src/client/message';
import { FrameDecoder } from '../../src/framing/frame-decoder';
import { ApiVersions } from '../../src/messages/apis/api-versions';
import type { RequestHeader } from '../../src/messages/header';
import { decodeRequestFrame, encodeResponseFrame } from '../../src/messages/message-codec';
import { apiByKey } from '../../src/messages/registry';
import { nodeTransport } from '../../src/transport/node-transport';
import type { Transport, TransportFactory } from '../../src/transport/transport';

/** One request as a fake broker sees it. */
export interface FakeRequest {
  readonly header: RequestHeader;
  readonly socket: Socket;
  /** Writes a response frame (size prefix included) to the requesting socket. */
  reply(frame: Buffer): void;
}

/** A tiny TCP server on 127.0.0.1 that hands every request frame to a handler, which may answer or not. */
export interface FakeBroker {
  readonly port: number;
  readonly requests: FakeRequest[];
  close(): Promise<void>;
}

export async function startFakeBroker(handle: (request: FakeRequest) => void): Promise<FakeBroker> {
  const requests: FakeRequest[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    const decoder = new FrameDecoder();
    socket.on('data', (chunk) => {
      for (const frame of decoder.push(chunk).frames) {
        const decoded = decodeRequestFrame(frame, apiByKey);
        if (decoded.header === null) throw new Error('fake broker got a frame without a header');
        const request: FakeRequest = {
          header: decoded.header,
          socket,
          reply: (bytes) => socket.write(bytes),
        };
        requests.push(request);
        handle(request);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('fake broker has no port');
  return {
    port: address.port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The answer of a healthy broker to ApiVersions at `version`, advertising `apis` (key → [min, max]). */
export function apiVersionsAnswer(
  correlationId: number,
  version: number,
  apis: Readonly<Record<number, readonly [number, number]>>,
): Buffer {
  return encodeResponseFrame(ApiVersions, version, correlationId, {
    errorCode: 0,
    apiKeys: Object.entries(apis).map(([key, [minVersion, maxVersion]]) => ({
      apiKey: Number(key),
      minVersion,
      maxVersion,
    })),
    throttleTimeMs: 0,
  });
}

/** A port on 127.0.0.1 that nothing listens on (it was just released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return address.port;
}

/** A transport factory that reports the API key of every request frame it writes. */
export function recordingTransport(onRequest: (apiKey: number) => void): TransportFactory {
  return async (options) => {
    const inner: Transport = await nodeTransport(options);
    return {
      remoteAddress: inner.remoteAddress,
      write(parts, onWritten) {
        // Every request is written as one frame: int32 size, then int16 api key.
        const first = parts[0];
        if (first !== undefined && first.length >= 6)
          onRequest(Buffer.from(first.buffer, first.byteOffset).readInt16BE(4));
        inner.write(parts, onWritten);
      },
      close: () => inner.close(),
    };
  };
}

/** Polls until `count` records arrived; fails if more arrive. */
export async function pollRecords(
  consumer: Consumer,
  count: number,
  maxWaitMs = 2000,
): Promise<ConsumerRecord[]> {
  const records: ConsumerRecord[] = [];
  while (records.length < count) records.push(...(await consumer.poll({ maxWaitMs })));
  if (records.length > count) throw new Error(`expected ${count} records, got ${records.length}`);
  return records;
}

/** A promise with its resolve function, for waiting on events. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve: (value: T) => void = () => {};
  const promise = new Promise<T>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}
