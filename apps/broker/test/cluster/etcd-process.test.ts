import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { Etcd3 } from 'etcd3';
import { describe, expect, it, onTestFinished } from 'vitest';
import { pollUntil } from '../group-fixtures';
import { startEtcd } from './etcd-process';
import { portsCollidingOnce } from './free-ports';

/**
 * The judge: a real etcd3 client, a fresh one per question so no circuit breaker or connection
 * left over from before a fault answers for the etcd after it. Every call has a deadline (etcd3
 * has none by default, cluster-brief §3.2).
 */
async function withClient<T>(
  endpoints: string[],
  ask: (client: Etcd3, deadline: Date) => Promise<T>,
  deadlineMs = 3000,
) {
  const client = new Etcd3({ hosts: endpoints, dialTimeout: deadlineMs });
  try {
    return await ask(client, new Date(Date.now() + deadlineMs));
  } finally {
    client.close();
  }
}

const put = (endpoints: string[], key: string, value: string, deadlineMs?: number) =>
  withClient(
    endpoints,
    (client, deadline) => client.put(key).value(value).options({ deadline }).exec(),
    deadlineMs,
  );
const get = (endpoints: string[], key: string, deadlineMs?: number) =>
  withClient(endpoints, (client, deadline) => client.get(key).options({ deadline }).string(), deadlineMs);

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('etcd test fixture', () => {
  it('starts a healthy member; what was written survives kill -9 and a restart on the same data directory', async () => {
    const etcd = await startEtcd();
    onTestFinished(() => etcd.stop());
    const member = etcd.member(0);
    expect(member.clientUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await put(etcd.endpoints, 'weir/test/k', 'before the crash');
    expect(await get(etcd.endpoints, 'weir/test/k')).toBe('before the crash');

    const firstPid = member.pid;
    await member.kill9();
    expect(member.isRunning).toBe(false);
    expect(isAlive(firstPid)).toBe(false);
    await expect(get(etcd.endpoints, 'weir/test/k', 500)).rejects.toThrow();

    await member.restart();
    expect(member.pid).not.toBe(firstPid);
    expect(await get(etcd.endpoints, 'weir/test/k')).toBe('before the crash');
  });

  it('a paused member answers nothing until it is resumed', async () => {
    const etcd = await startEtcd();
    onTestFinished(() => etcd.stop());
    const member = etcd.member(0);
    await put(etcd.endpoints, 'weir/test/p', 'one');

    member.pause();
    expect(member.process.isPaused).toBe(true);
    await expect(get(etcd.endpoints, 'weir/test/p', 500)).rejects.toThrow();
    expect(await member.isHealthy()).toBe(false);
    expect(isAlive(member.pid)).toBe(true);

    member.resume();
    await member.waitHealthy();
    expect(await get(etcd.endpoints, 'weir/test/p')).toBe('one');
  });

  it('stop ends the process by its PID, even while paused, and removes the data directory', async () => {
    const etcd = await startEtcd();
    const member = etcd.member(0);
    const pid = member.pid;
    expect(existsSync(member.dataDir)).toBe(true);
    member.pause();

    await etcd.stop();
    expect(isAlive(pid)).toBe(false);
    expect(member.isRunning).toBe(false);
    expect(existsSync(member.dataDir)).toBe(false);
  });

  it('starts on other ports when the ones it chose were taken before etcd could bind them', async () => {
    // Connections to the held port are dropped at once, so closing it never waits for them.
    const holder = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => holder.close(() => resolve())));
    const takenPort = (holder.address() as { port: number }).port;
    const ports = portsCollidingOnce(takenPort);

    const etcd = await startEtcd({ ports });
    onTestFinished(() => etcd.stop());
    expect(ports.calls).toBe(2);
    expect(etcd.member(0).clientUrl).not.toBe(`http://127.0.0.1:${takenPort}`);
    await put(etcd.endpoints, 'weir/test/r', 'retried');
    expect(await get(etcd.endpoints, 'weir/test/r')).toBe('retried');
  });

  it('three members form one cluster that keeps serving when its leader is killed, and the leader rejoins', async () => {
    const etcd = await startEtcd({ members: 3 });
    onTestFinished(() => etcd.stop());
    expect(new Set(etcd.endpoints).size).toBe(3);
    await put([etcd.member(0).clientUrl], 'weir/test/c', 'through the first');
    expect(await get([etcd.member(2).clientUrl], 'weir/test/c')).toBe('through the first');

    // Wrapped, since pollUntil takes a falsy answer for "not yet" and member 0 may lead.
    const leaderNow = async () => {
      const index = await etcd.leaderIndex();
      return index === undefined ? undefined : { index };
    };
    const { index: leader } = await pollUntil(leaderNow, 'an etcd leader');
    await etcd.member(leader).kill9();
    const others = etcd.members.filter((_, index) => index !== leader).map((member) => member.clientUrl);
    // The survivors elect a new leader (about 1.5 s here); until then a write may fail.
    await pollUntil(
      () =>
        put(others, 'weir/test/c', 'after the leader died', 2000).then(
          () => true,
          () => false,
        ),
      'a write to the two surviving members',
    );
    expect((await pollUntil(leaderNow, 'a new etcd leader')).index).not.toBe(leader);

    await etcd.member(leader).restart();
    expect(await get([etcd.member(leader).clientUrl], 'weir/test/c')).toBe('after the leader died');
  });
});
