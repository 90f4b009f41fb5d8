import { once } from 'node:events';
import { createServer, type Server, Socket } from 'node:net';
import { Etcd3 } from 'etcd3';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { pollUntil } from '../group-fixtures';
import { startBrokerCluster } from './broker-cluster';
import { kcatMetadata } from './cluster-clients';
import { EtcdLinkProxy } from './etcd-link-proxy';
import { startEtcd } from './etcd-process';
import { LinkCuts, LinkCutsUnavailableError, nemesisTables } from './nft-link-cuts';

/** How long a test waits for bytes a cut must stop: on loopback an uncut answer takes well under 1 ms. */
const SILENCE_MS = 700;

/** An echo server on `host` (ephemeral port), stopped when the test finishes. */
async function echoServer(host: string): Promise<{ server: Server; port: number }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    socket.pipe(socket);
  });
  server.listen(0, host);
  await once(server, 'listening');
  onTestFinished(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  return { server, port: (server.address() as { port: number }).port };
}

/** A connection from `from` to `host:port`; rejects when it is not established within `timeoutMs`. */
async function connect(from: string, host: string, port: number, timeoutMs = SILENCE_MS): Promise<Socket> {
  const socket = new Socket();
  onTestFinished(() => {
    socket.destroy();
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`connect ${from} -> ${host}:${port} timed out after ${timeoutMs} ms`));
    }, timeoutMs);
    socket.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.connect({ host, port, localAddress: from }, () => {
      clearTimeout(timer);
      resolve(socket);
    });
  });
}

/**
 * Sends `text` and resolves with whether it came back within `timeoutMs`: a cut is proven by an
 * answer that does not come, so this waits for the echo or for the bound, whichever is first.
 */
async function echoes(socket: Socket, text: string, timeoutMs = SILENCE_MS): Promise<boolean> {
  let received = '';
  return new Promise((resolve) => {
    const finish = (answered: boolean) => {
      clearTimeout(timer);
      socket.off('data', onData);
      resolve(answered);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.toString();
      if (received.includes(text)) finish(true);
    };
    const timer = setTimeout(() => finish(false), timeoutMs);
    socket.on('data', onData);
    socket.write(text);
  });
}

/** Whether a new connection from `from` works end to end (connects and echoes). */
async function reaches(from: string, host: string, port: number): Promise<boolean> {
  try {
    const socket = await connect(from, host, port);
    const answered = await echoes(socket, 'ping');
    socket.destroy();
    return answered;
  } catch {
    return false;
  }
}

function linkCuts(): LinkCuts {
  const cuts = new LinkCuts();
  onTestFinished(() => cuts.close());
  return cuts;
}

const ourTables = () => nemesisTables().filter((table) => table.startsWith(`weir_nemesis_${process.pid}_`));

afterAll(() => {
  // Every table a test made was deleted by its cleanup, passed or failed.
  expect(ourTables()).toEqual([]);
});

describe('nft link cuts', () => {
  it('cut(a, b) stops new connections between a and b both ways, and nothing else; heal restores them', async () => {
    const b = await echoServer('127.0.0.12');
    const a = await echoServer('127.0.0.11');
    const c = await echoServer('127.0.0.13');
    expect(await reaches('127.0.0.11', '127.0.0.12', b.port)).toBe(true);
    expect(await reaches('127.0.0.12', '127.0.0.11', a.port)).toBe(true);

    const cuts = linkCuts();
    cuts.cut('127.0.0.11', '127.0.0.12');
    expect(cuts.cuts()).toEqual(['127.0.0.11 . 127.0.0.12']);
    // Dropped, not rejected: the connect hangs until the caller gives up.
    await expect(connect('127.0.0.11', '127.0.0.12', b.port)).rejects.toThrow(/timed out/);
    await expect(connect('127.0.0.12', '127.0.0.11', a.port)).rejects.toThrow(/timed out/);
    expect(await reaches('127.0.0.13', '127.0.0.12', b.port)).toBe(true);
    expect(await reaches('127.0.0.11', '127.0.0.13', c.port)).toBe(true);

    // Healing names the link in either order.
    cuts.heal('127.0.0.12', '127.0.0.11');
    expect(cuts.cuts()).toEqual([]);
    expect(await reaches('127.0.0.11', '127.0.0.12', b.port)).toBe(true);
  });

  it('an established connection stops while its link is cut and resumes after the heal, like a network', async () => {
    const b = await echoServer('127.0.0.12');
    const socket = await connect('127.0.0.11', '127.0.0.12', b.port);
    let closed = false;
    socket.on('close', () => {
      closed = true;
    });
    expect(await echoes(socket, 'before')).toBe(true);

    const cuts = linkCuts();
    cuts.cut('127.0.0.11', '127.0.0.12');
    expect(await echoes(socket, 'during')).toBe(false);
    expect(closed).toBe(false);

    cuts.healAll();
    // TCP retransmits what the cut dropped; the bytes arrive once the link is back.
    await pollUntil(() => echoes(socket, 'after'), 'the established connection to resume', {
      timeoutMs: 10_000,
    });
    expect(closed).toBe(false);
  });

  it('cutService stops one listener of a host for one client address and leaves its other listeners', async () => {
    const kafka = await echoServer('127.0.0.12');
    const health = await echoServer('127.0.0.12');
    const cuts = linkCuts();
    cuts.cutService('127.0.0.1', '127.0.0.12', kafka.port);
    expect(await reaches('127.0.0.1', '127.0.0.12', kafka.port)).toBe(false);
    expect(await reaches('127.0.0.1', '127.0.0.12', health.port)).toBe(true);
    expect(await reaches('127.0.0.11', '127.0.0.12', kafka.port)).toBe(true);
    cuts.healService('127.0.0.1', '127.0.0.12', kafka.port);
    expect(await reaches('127.0.0.1', '127.0.0.12', kafka.port)).toBe(true);
  });

  it('close() deletes its own table only; each instance has its own', () => {
    const first = new LinkCuts();
    const second = linkCuts();
    expect(first.table).not.toBe(second.table);
    expect(ourTables()).toEqual(expect.arrayContaining([first.table, second.table]));
    first.cut('127.0.0.11', '127.0.0.12');
    first.close();
    first.close();
    expect(ourTables()).not.toContain(first.table);
    expect(ourTables()).toContain(second.table);
    expect(() => first.cut('127.0.0.11', '127.0.0.12')).toThrow(/closed/);
  });

  it('refuses to start, naming what is missing, without nft or without root', () => {
    expect(() => new LinkCuts({ nftBinary: '/nonexistent/nft' })).toThrow(LinkCutsUnavailableError);
    expect(() => new LinkCuts({ nftBinary: '/nonexistent/nft' })).toThrow(/nftables.*ensure-system-deps/);
    expect(() => new LinkCuts({ uid: 1000 })).toThrow(/root.*uid 1000/);
    expect(() => linkCuts().cut('127.0.0.11', 'localhost')).toThrow(/IPv4/);
  });
});

describe('etcd link proxy', { timeout: 90_000 }, () => {
  it('cut black-holes open and new connections without closing them; heal closes those and forwards again', async () => {
    const upstream = await echoServer('127.0.0.1');
    const proxy = await EtcdLinkProxy.start([{ host: '127.0.0.1', port: upstream.port }]);
    onTestFinished(() => proxy.close());
    const open = await connect('127.0.0.1', '127.0.0.1', proxy.port);
    let closed = false;
    open.on('close', () => {
      closed = true;
    });
    expect(await echoes(open, 'before')).toBe(true);

    proxy.cut();
    expect(await echoes(open, 'during')).toBe(false);
    // New connections are accepted (as the kernel would) and hang.
    const during = await connect('127.0.0.1', '127.0.0.1', proxy.port);
    let duringClosed = false;
    during.on('close', () => {
      duringClosed = true;
    });
    expect(await echoes(during, 'during')).toBe(false);
    expect([closed, duringClosed]).toEqual([false, false]);

    proxy.heal();
    await pollUntil(
      () => closed && duringClosed && proxy.connectionCount === 0,
      'black-holed sockets closed',
    );
    expect(await reaches('127.0.0.1', '127.0.0.1', proxy.port)).toBe(true);
  });

  it('moves on to the next member when one refuses', async () => {
    const refusing = await echoServer('127.0.0.1');
    const refusedPort = refusing.port;
    await new Promise((resolve) => refusing.server.close(resolve));
    const live = await echoServer('127.0.0.1');
    const proxy = await EtcdLinkProxy.start([
      { host: '127.0.0.1', port: refusedPort },
      { host: '127.0.0.1', port: live.port },
    ]);
    onTestFinished(() => proxy.close());
    for (let i = 0; i < 3; i++) expect(await reaches('127.0.0.1', '127.0.0.1', proxy.port)).toBe(true);
  });

  it('keeps a client reaching a three-member etcd through the proxy while one member is killed', async () => {
    const etcd = await startEtcd({ members: 3 });
    onTestFinished(() => etcd.stop());
    const proxy = await EtcdLinkProxy.start(etcd.endpoints);
    onTestFinished(() => proxy.close());
    const client = new Etcd3({ hosts: [proxy.endpoint], dialTimeout: 1000 });
    onTestFinished(() => client.close());
    const putThroughProxy = (value: string) =>
      client
        .put('nemesis/members')
        .value(value)
        .options({ deadline: new Date(Date.now() + 1000) })
        .exec()
        .then(() => true)
        .catch(() => false);
    expect(await putThroughProxy('all members up')).toBe(true);
    await etcd.member(0).kill9();
    // The client's connection to the killed member closes; its next one goes to a live member.
    await pollUntil(() => putThroughProxy('one member down'), 'a put through the proxy with member 0 dead', {
      timeoutMs: 30_000,
    });
  });

  it('etcd calls through a cut proxy time out, on an open client and a new one, and work after the heal', async () => {
    const etcd = await startEtcd();
    onTestFinished(() => etcd.stop());
    const proxy = await EtcdLinkProxy.start(etcd.endpoints);
    onTestFinished(() => proxy.close());
    const client = new Etcd3({ hosts: [proxy.endpoint], dialTimeout: 1000 });
    onTestFinished(() => client.close());
    const deadline = () => new Date(Date.now() + 1000);
    await client.put('nemesis/k').value('before').options({ deadline: deadline() }).exec();

    proxy.cut();
    await expect(client.get('nemesis/k').options({ deadline: deadline() }).string()).rejects.toThrow();
    const fresh = new Etcd3({ hosts: [proxy.endpoint], dialTimeout: 1000 });
    onTestFinished(() => fresh.close());
    await expect(fresh.get('nemesis/k').options({ deadline: deadline() }).string()).rejects.toThrow();
    // etcd itself is fine: only the link through the proxy is cut.
    const direct = new Etcd3({ hosts: etcd.endpoints, dialTimeout: 1000 });
    onTestFinished(() => direct.close());
    expect(await direct.get('nemesis/k').options({ deadline: deadline() }).string()).toBe('before');

    proxy.heal();
    await pollUntil(
      () =>
        client
          .get('nemesis/k')
          .options({ deadline: deadline() })
          .string()
          .catch(() => undefined),
      'the open client to reach etcd again',
      { timeoutMs: 30_000 },
    );
    expect(await client.get('nemesis/k').options({ deadline: deadline() }).string()).toBe('before');
  });
});

describe('cluster nemesis', { timeout: 180_000 }, () => {
  it('isolates one broker from etcd, from clients and from the other brokers, and heals all', async () => {
    const etcd = await startEtcd();
    onTestFinished(() => etcd.stop());
    const cluster = await startBrokerCluster({
      etcd,
      brokers: 2,
      hosts: 'per-broker',
      etcdProxies: true,
      config: { cluster: { sessionTtlSeconds: 3, controllerTtlSeconds: 3 } },
    });
    onTestFinished(() => cluster.stop());
    const [first, second] = cluster.brokers as [(typeof cluster.brokers)[0], (typeof cluster.brokers)[0]];
    expect(first.config.cluster).toMatchObject({ etcdEndpoints: [first.etcdProxy.endpoint] });
    const listed = async () =>
      (await kcatMetadata(first.bootstrap)).brokers.map((broker) => broker.id).sort();
    expect(await listed()).toEqual([1, 2]);

    // Off etcd, the second broker's session lease expires and the first stops listing it.
    cluster.isolateFromEtcd(second);
    await pollUntil(async () => (await listed()).length === 1, 'broker 2 to drop out of Metadata', {
      timeoutMs: 30_000,
    });
    expect(await listed()).toEqual([1]);
    cluster.healAll();
    await pollUntil(async () => (await listed()).length === 2, 'broker 2 to register again', {
      timeoutMs: 30_000,
    });

    // Off clients: its Kafka listener hangs for 127.0.0.1, its probes still answer.
    cluster.isolateFromClients(second);
    await expect(connect('127.0.0.1', second.host, second.ports.client)).rejects.toThrow(/timed out/);
    expect((await second.readiness())?.status).toEqual(expect.any(Number));
    await connect('127.0.0.1', first.host, first.ports.client);

    // Off the other brokers: nothing from its address reaches the first broker's listeners.
    cluster.isolateFromBrokers(second);
    await expect(connect(second.host, first.host, first.ports.internal)).rejects.toThrow(/timed out/);
    await expect(connect(first.host, second.host, second.ports.internal)).rejects.toThrow(/timed out/);

    cluster.healAll();
    await connect('127.0.0.1', second.host, second.ports.client);
    await connect(second.host, first.host, first.ports.internal);
  });
});
