import { connect, isIP, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';
import type {
  TlsOptions,
  Transport,
  TransportConnectOptions,
  TransportFactory,
  TransportHandlers,
} from './transport';

/** A TCP socket, plain or TLS, as a {@link Transport}. */
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
 * Opens a TCP connection with Node's `net` module, or `tls` when `options.tls` is set, with Nagle's
 * algorithm off (requests are whole frames written at once, and waiting to coalesce them only adds
 * latency). With TLS the transport is ready once the handshake completed and the broker's
 * certificate verified; the connect timeout covers both.
 */
export const nodeTransport: TransportFactory = (options: TransportConnectOptions) =>
  new Promise<Transport>((resolve, reject) => {
    const remoteAddress = `${options.host}:${options.port}`;
    const tls = options.tls;
    const local = options.localAddress === undefined ? {} : { localAddress: options.localAddress };
    const socket =
      tls === undefined
        ? connect({ host: options.host, port: options.port, noDelay: true, ...local })
        : connectTls({
            host: options.host,
            port: options.port,
            ...local,
            ...tlsConnectOptions(options.host, tls),
          });
    socket.setNoDelay(true);
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
    socket.once(tls === undefined ? 'connect' : 'secureConnect', () => {
      clearTimeout(timer);
      socket.off('error', onError);
      resolve(new NodeSocketTransport(socket, remoteAddress, options.handlers));
    });
  });

/**
 * Node's `tls.connect` options for `tls`. SNI carries a host name only (RFC 6066 forbids an IP
 * address there, and Node warns about one); the certificate is still checked against the IP.
 */
function tlsConnectOptions(host: string, tls: TlsOptions) {
  const servername = tls.servername ?? (isIP(host) === 0 ? host : undefined);
  return {
    ...(tls.ca === undefined
      ? {}
      : { ca: Array.isArray(tls.ca) ? [...tls.ca] : (tls.ca as string | Buffer) }),
    ...(tls.cert === undefined ? {} : { cert: tls.cert }),
    ...(tls.key === undefined ? {} : { key: tls.key }),
    ...(servername === undefined ? {} : { servername }),
    rejectUnauthorized: tls.rejectUnauthorized ?? true,
  };
}
