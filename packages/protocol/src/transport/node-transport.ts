import { connect, type Socket } from 'node:net';
import type { Transport, TransportConnectOptions, TransportFactory, TransportHandlers } from './transport';

/** A plain TCP socket as a {@link Transport}. */
class NodeSocketTransport implements Transport {
  readonly remoteAddress: string;
  readonly #socket: Socket;

  constructor(socket: Socket, remoteAddress: string, handlers: TransportHandlers) {
    this.#socket = socket;
    this.remoteAddress = remoteAddress;
    let failure: Error | undefined;
    socket.on('data', (chunk: Buffer) => handlers.onData(chunk));
    // 'error' is always followed by 'close'; keep the error so 'close' can report why.
    socket.on('error', (error) => {
      failure ??= error;
    });
    socket.once('close', () => handlers.onClose(failure));
  }

  write(parts: readonly Uint8Array[], onWritten?: (error: Error | undefined) => void): void {
    const socket = this.#socket;
    if (socket.destroyed || !socket.writable) {
      if (onWritten) queueMicrotask(() => onWritten(new Error(`socket to ${this.remoteAddress} is closed`)));
      return;
    }
    // Corking turns the header frame and the record bytes into one writev, without copying them.
    socket.cork();
    const last = parts.length - 1;
    for (let index = 0; index < last; index++) socket.write(parts[index]!);
    socket.write(parts[last] ?? Buffer.alloc(0), (error) => onWritten?.(error ?? undefined));
    socket.uncork();
  }

  close(): void {
    this.#socket.destroy();
  }
}

/**
 * Opens a TCP connection with Node's `net` module, with Nagle's algorithm off (requests are whole
 * frames written at once, and waiting to coalesce them only adds latency).
 */
export const nodeTransport: TransportFactory = (options: TransportConnectOptions) =>
  new Promise<Transport>((resolve, reject) => {
    const remoteAddress = `${options.host}:${options.port}`;
    const socket = connect({ host: options.host, port: options.port, noDelay: true });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`connecting to ${remoteAddress} took longer than ${options.connectTimeoutMs} ms`));
    }, options.connectTimeoutMs);
    const onError = (error: Error) => {
      clearTimeout(timer);
      socket.destroy();
      reject(error);
    };
    socket.once('error', onError);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.off('error', onError);
      resolve(new NodeSocketTransport(socket, remoteAddress, options.handlers));
    });
  });
