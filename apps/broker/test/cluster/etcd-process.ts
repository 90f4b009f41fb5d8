// Debian's etcd (3.4, package etcd-server, installed by scripts/ensure-system-deps.sh) as child
// processes of the test: one member or three, on 127.0.0.1 with free ports and a temporary data
// directory, stopped by PID. The faults cluster tests need are here too: kill -9, SIGSTOP/SIGCONT
// and a restart on the same data directory. docs/architecture.md §10 describes the test fixtures.

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { type TemporaryDirectory, temporaryDirectory } from '@weir/test-broker';
import { pollUntil } from '../group-fixtures';
import { freePorts, isAddressInUse, type PortSource } from './free-ports';
import { describeExit, SupervisedProcess } from './supervised-process';

/** The etcd binary; Debian installs it here. */
const ETCD_BINARY = '/usr/bin/etcd';
/** Port collisions (another process took a port between `freePorts` and etcd's bind) retried this often. */
const START_ATTEMPTS = 5;
/** A 3-member cluster measured 3 s to healthy on this machine (cluster-brief §3.3); a loaded one is slower. */
const HEALTHY_TIMEOUT_MS = 25_000;

export interface EtcdOptions {
  /** 1 (the default) or 3: an odd number, so a majority survives one member down. */
  members?: number;
  /** The loopback address members listen on. */
  host?: string;
  /** Where the ports come from; `freePorts` unless a test forces a collision. */
  ports?: PortSource;
}

/** One etcd member: its URLs, data directory and process, with the faults tests inject. */
export class EtcdMember {
  readonly name: string;
  readonly clientUrl: string;
  readonly peerUrl: string;
  readonly dataDir: string;
  #args: string[];
  #process: SupervisedProcess | undefined;

  constructor(name: string, clientUrl: string, peerUrl: string, dataDir: string, args: string[]) {
    this.name = name;
    this.clientUrl = clientUrl;
    this.peerUrl = peerUrl;
    this.dataDir = dataDir;
    this.#args = args;
  }

  /** The running process; throws when the member is not running. */
  get process(): SupervisedProcess {
    if (!this.#process || this.#process.hasExited) throw new Error(`etcd member ${this.name} is not running`);
    return this.#process;
  }

  get pid(): number {
    return this.process.pid;
  }

  get isRunning(): boolean {
    return this.#process !== undefined && !this.#process.hasExited;
  }

  /** Starts the process (on the same data directory when it ran before); does not wait for health. */
  spawn(): SupervisedProcess {
    if (this.isRunning) throw new Error(`etcd member ${this.name} is already running`);
    // An inherited ETCD_* variable would silently change the flags below.
    const env: NodeJS.ProcessEnv = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => !name.startsWith('ETCD_')),
    ) as NodeJS.ProcessEnv;
    const child = spawn(ETCD_BINARY, this.#args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.#process = new SupervisedProcess(`etcd ${this.name}`, child);
    return this.#process;
  }

  /** Resolves once `/health` says healthy; rejects if the process exits first or after `timeoutMs`. */
  async waitHealthy(timeoutMs = HEALTHY_TIMEOUT_MS): Promise<void> {
    const member = this.process;
    await pollUntil(
      async () => {
        if (member.hasExited) {
          const exit = await member.exited;
          throw new EtcdExitedError(this.name, describeExit(exit), member.output());
        }
        return this.isHealthy();
      },
      `etcd ${this.name} to be healthy at ${this.clientUrl}`,
      { timeoutMs, intervalMs: 50 },
    );
  }

  /** One `/health` request, bounded: a paused member never answers. */
  async isHealthy(): Promise<boolean> {
    try {
      const response = await fetch(`${this.clientUrl}/health`, { signal: AbortSignal.timeout(1000) });
      if (!response.ok) return false;
      return ((await response.json()) as { health?: string }).health === 'true';
    } catch {
      return false;
    }
  }

  /** kill -9: no chance to flush or say goodbye; resolves once it has exited. */
  async kill9(): Promise<void> {
    await this.#process?.kill9();
  }

  /** SIGSTOP: it keeps its sockets open and answers nothing, as a hung machine would. */
  pause(): void {
    this.process.pause();
  }

  resume(): void {
    this.process.resume();
  }

  /** SIGTERM, SIGKILL after a bound; resolves once it has exited. */
  async stop(): Promise<void> {
    await this.#process?.stop();
  }

  /** Stops it if running, starts it again on the same data directory and ports, and waits until healthy. */
  async restart(): Promise<void> {
    await this.stop();
    this.spawn();
    await this.waitHealthy();
  }
}

class EtcdExitedError extends Error {
  readonly output: string;
  constructor(name: string, exit: string, output: string) {
    super(`etcd ${name} exited (${exit}) before it was healthy:\n${output}`);
    this.output = output;
  }
}

/** An etcd cluster of one or three members started by the test; `stop()` removes everything. */
export class EtcdCluster {
  readonly members: readonly EtcdMember[];
  #directory: TemporaryDirectory;

  constructor(members: readonly EtcdMember[], directory: TemporaryDirectory) {
    this.members = members;
    this.#directory = directory;
  }

  /** Every member's client URL, for `cluster.etcdEndpoints` and etcd3's `hosts`. */
  get endpoints(): string[] {
    return this.members.map((member) => member.clientUrl);
  }

  member(index: number): EtcdMember {
    const member = this.members[index];
    if (!member) throw new Error(`no etcd member ${index} (there are ${this.members.length})`);
    return member;
  }

  /**
   * The index of the member that is the Raft leader now, as a running member reports it through
   * etcd's JSON gateway (`/v3/maintenance/status`); undefined when none answers with a leader.
   */
  async leaderIndex(): Promise<number | undefined> {
    const statuses = await Promise.all(this.members.map((member) => memberStatus(member)));
    const leaderId = statuses.find((status) => status?.leader !== undefined && status.leader !== '0')?.leader;
    if (leaderId === undefined) return undefined;
    const index = statuses.findIndex((status) => status?.memberId === leaderId);
    return index === -1 ? undefined : index;
  }

  /** Stops every member by PID (SIGTERM, then SIGKILL) and removes the data directories. */
  async stop(): Promise<void> {
    await Promise.all(this.members.map((member) => member.stop()));
    await this.#directory.cleanup();
  }
}

async function memberStatus(member: EtcdMember): Promise<{ memberId: string; leader?: string } | undefined> {
  if (!member.isRunning || member.process.isPaused) return undefined;
  try {
    const response = await fetch(`${member.clientUrl}/v3/maintenance/status`, {
      method: 'POST',
      body: '{}',
      signal: AbortSignal.timeout(1000),
    });
    if (!response.ok) return undefined;
    const body = (await response.json()) as { header?: { member_id?: string }; leader?: string };
    return body.header?.member_id ? { memberId: body.header.member_id, leader: body.leader } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Starts etcd (one member, or three forming one cluster) on free ports of 127.0.0.1 with a fresh
 * temporary data directory and resolves once every member is healthy. Ports are chosen free just
 * before the start, and a start that finds one taken is retried with new ones. The caller stops it
 * with `stop()`, in an `afterEach` or `onTestFinished`, so a failing test cleans up too.
 */
export async function startEtcd(options: EtcdOptions = {}): Promise<EtcdCluster> {
  const count = options.members ?? 1;
  if (count < 1 || count % 2 === 0)
    throw new Error(`an etcd cluster has an odd number of members, not ${count}`);
  const host = options.host ?? '127.0.0.1';
  const directory = await temporaryDirectory('weir-etcd-');
  try {
    for (let attempt = 1; ; attempt++) {
      const members = await planMembers(
        await (options.ports ?? freePorts)(host, count * 2),
        host,
        directory.path,
      );
      try {
        for (const member of members) {
          await mkdir(member.dataDir, { recursive: true });
          member.spawn();
        }
        await Promise.all(members.map((member) => member.waitHealthy()));
        return new EtcdCluster(members, directory);
      } catch (error) {
        await Promise.all(members.map((member) => member.kill9()));
        await Promise.all(members.map((member) => rm(member.dataDir, { recursive: true, force: true })));
        const collided = error instanceof EtcdExitedError && isAddressInUse(error.output);
        if (!collided || attempt === START_ATTEMPTS) throw error;
      }
    }
  } catch (error) {
    await directory.cleanup();
    throw error;
  }
}

function planMembers(ports: number[], host: string, root: string): EtcdMember[] {
  const count = ports.length / 2;
  const names = Array.from({ length: count }, (_, i) => `etcd-${i + 1}`);
  const peerUrls = names.map((_, i) => `http://${host}:${ports[2 * i + 1]}`);
  const initialCluster = names.map((name, i) => `${name}=${peerUrls[i]}`).join(',');
  // A token unique to this start keeps members of two test clusters from ever joining each other.
  const token = `weir-test-${randomBytes(6).toString('hex')}`;
  return names.map((name, i) => {
    const clientUrl = `http://${host}:${ports[2 * i]}`;
    const peerUrl = peerUrls[i]!;
    const dataDir = join(root, name);
    const args = [
      `--name=${name}`,
      `--data-dir=${dataDir}`,
      `--listen-client-urls=${clientUrl}`,
      `--advertise-client-urls=${clientUrl}`,
      `--listen-peer-urls=${peerUrl}`,
      `--initial-advertise-peer-urls=${peerUrl}`,
      `--initial-cluster=${initialCluster}`,
      '--initial-cluster-state=new',
      `--initial-cluster-token=${token}`,
      '--logger=zap',
      '--log-outputs=stderr',
    ];
    return new EtcdMember(name, clientUrl, peerUrl, dataDir, args);
  });
}
