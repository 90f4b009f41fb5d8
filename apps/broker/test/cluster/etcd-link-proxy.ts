// A TCP proxy in the test process between one broker and etcd, so a test can cut that broker off
// from etcd alone. The nft cuts (nft-link-cuts.ts) cannot do it: the etcd client (npm etcd3) cannot
// bind a local address, so every broker reaches etcd from 127.0.0.1 and the links look alike. A cut
// black-holes the proxy the way a dead network would: bytes stop in both directions but no socket
// closes, so the client finds out only through its own deadlines and keepalives. docs/architecture.md
// §10 describes the nemesis.

import { createServer, type Server, Socket } from 'node:net';

export interface ProxyUpstream {
  host: string;
  port: number;
}

/** One proxied connection: the accepted socket and, unless it was accepted during a cut, its upstream. */
interface ProxiedLink {
  downstream: Socket;
  upstream: Socket | undefined;
  blackHoled: boolean;
}

/**
 * Listens on 127.0.0.1 (an ephemeral port) and forwards each connection to one of `upstreams`
 * (etcd members), starting at the next member for each connection and moving on when a member
 * refuses, so a proxy outlives one dead member of three like a client with every endpoint would.
 */
export class EtcdLinkProxy {
  readonly #server: Server;
  readonly #upstreams: readonly ProxyUpstream[];
  readonly #links = new Set<ProxiedLink>();
  #nextUpstream = 0;
  #cut = false;

  private constructor(server: Server, upstreams: readonly ProxyUpstream[]) {
    this.#server = server;
    this.#upstreams = upstreams;
  }

  /** Starts a proxy to `upstreams` (`http://host:port` URLs or host/port pairs). */
  static async start(upstreams: readonly (string | ProxyUpstream)[]): Promise<EtcdLinkProxy> {
    if (upstreams.length === 0) throw new Error('an etcd link proxy needs at least one upstream');
    const server = createServer({ pauseOnConnect: true });
    const proxy = new EtcdLinkProxy(server, upstreams.map(upstreamOf));
    server.on('connection', (socket) => proxy.#accept(socket));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    return proxy;
  }

  get port(): number {
    const address = this.#server.address();
    if (address === null || typeof address === 'string')
      throw new Error('the etcd link proxy is not listening');
    return address.port;
  }

  /** The URL a broker puts in `cluster.etcdEndpoints` to reach etcd through this proxy. */
  get endpoint(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get isCut(): boolean {
    return this.#cut;
  }

  /** How many connections the proxy holds (forwarding or black-holed), for tests of the proxy. */
  get connectionCount(): number {
    return this.#links.size;
  }

  /**
   * Black-holes the link: open connections stop forwarding both ways but stay open, and new ones
   * are accepted and never forwarded.
   */
  cut(): void {
    this.#cut = true;
    for (const link of this.#links) this.#blackHole(link);
  }

  /**
   * Forwards new connections again and destroys the black-holed ones, so clients reconnect (a
   * connection whose bytes were dropped cannot resume where it stopped: what was in flight is gone).
   */
  heal(): void {
    this.#cut = false;
    for (const link of this.#links) if (link.blackHoled) this.#destroy(link);
  }

  /** Stops listening and destroys every connection. */
  async close(): Promise<void> {
    for (const link of this.#links) this.#destroy(link);
    if (!this.#server.listening) return;
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #accept(downstream: Socket): void {
    const link: ProxiedLink = { downstream, upstream: undefined, blackHoled: false };
    this.#links.add(link);
    downstream.on('error', () => this.#destroy(link));
    downstream.on('close', () => this.#destroy(link));
    if (this.#cut) {
      // Accepted (the kernel already did) and left paused: nothing is read, nothing forwarded.
      link.blackHoled = true;
      return;
    }
    this.#connectUpstream(link, 0);
  }

  #connectUpstream(link: ProxiedLink, attempt: number): void {
    if (attempt >= this.#upstreams.length) {
      link.downstream.destroy();
      return;
    }
    const target = this.#upstreams[this.#nextUpstream % this.#upstreams.length]!;
    this.#nextUpstream += 1;
    const upstream = new Socket();
    link.upstream = upstream;
    const refused = () => {
      if (link.blackHoled || link.downstream.destroyed) return;
      this.#connectUpstream(link, attempt + 1);
    };
    upstream.once('error', refused);
    upstream.connect(target.port, target.host, () => {
      upstream.off('error', refused);
      upstream.on('error', () => this.#destroy(link));
      upstream.on('close', () => this.#destroy(link));
      if (link.blackHoled) {
        upstream.pause();
        return;
      }
      link.downstream.pipe(upstream);
      upstream.pipe(link.downstream);
      link.downstream.resume();
    });
  }

  #blackHole(link: ProxiedLink): void {
    if (link.blackHoled) return;
    link.blackHoled = true;
    // Unpiped and paused: bytes pile up in kernel buffers on both sides and reach no one.
    link.downstream.unpipe();
    link.downstream.pause();
    if (link.upstream) {
      link.upstream.unpipe();
      link.upstream.pause();
    }
  }

  #destroy(link: ProxiedLink): void {
    if (!this.#links.delete(link)) return;
    link.downstream.destroy();
    link.upstream?.destroy();
  }
}

function upstreamOf(upstream: string | ProxyUpstream): ProxyUpstream {
  if (typeof upstream !== 'string') return upstream;
  const url = new URL(upstream);
  return { host: url.hostname, port: Number(url.port) };
}
