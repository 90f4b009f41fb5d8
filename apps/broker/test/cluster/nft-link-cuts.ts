// Network cuts between loopback addresses with nftables, for cluster fault tests: each broker of a
// `per-broker` cluster has its own 127.0.0.x and dials its peers from it, so a link is a pair of
// addresses, and dropping the packets of that pair in the output hook cuts it both ways without a
// namespace (cluster-brief §4; `tc netem` does not exist on these machines). Packets are dropped,
// not rejected: a cut looks like a dead network, where connects and established connections hang
// instead of failing fast. docs/architecture.md §10 describes the nemesis.

import { execFileSync, spawnSync } from 'node:child_process';
import { isIPv4 } from 'node:net';
import { threadId } from 'node:worker_threads';

/** Where Debian's nftables package (scripts/ensure-system-deps.sh) installs the binary. */
const NFT_BINARY = '/usr/sbin/nft';
const TABLE_PREFIX = 'weir_nemesis_';
/** A set of address pairs; each element cuts both directions (two rules match it, one per direction). */
const LINK_SET = 'cut_links';
/** A set of (client, server, server port): only the connections to one listener of a host. */
const SERVICE_SET = 'cut_services';

export interface LinkCutsOptions {
  /** The nft binary; the Debian path by default. */
  nftBinary?: string;
  /** The effective user id; the test process's by default (nft needs root to change the ruleset). */
  uid?: number;
}

/** Thrown when this machine cannot cut links: nft missing, or not root. */
export class LinkCutsUnavailableError extends Error {}

let tablesCreated = 0;
/** Tables of this process not closed yet, deleted at exit when a test forgot (or crashed before) `close`. */
const openTables = new Set<LinkCuts>();
let exitHookInstalled = false;

/**
 * One nft table (inet family, its own name per instance) holding drop rules by address pair. Cuts
 * apply to new and established connections alike: the rules match every packet, not connection
 * state. `close()` deletes the table; call it in `onTestFinished`/`afterEach` (a process exit
 * deletes tables left open, and a new instance deletes tables of test processes that died).
 */
export class LinkCuts {
  readonly table: string;
  readonly #nft: string;
  #closed = false;

  constructor(options: LinkCutsOptions = {}) {
    this.#nft = options.nftBinary ?? NFT_BINARY;
    checkCanCut(this.#nft, options.uid ?? process.geteuid?.());
    deleteTablesOfDeadProcesses(this.#nft);
    tablesCreated += 1;
    // The thread id keeps names apart when test files share a process (vitest's threads pool).
    this.table = `${TABLE_PREFIX}${process.pid}_${threadId}_${tablesCreated}`;
    const t = `inet ${this.table}`;
    this.#apply([
      `add table ${t}`,
      // Priority -300 runs before conntrack and any other filter chain, so nothing accepts first.
      `add chain ${t} output { type filter hook output priority -300; policy accept; }`,
      `add set ${t} ${LINK_SET} { type ipv4_addr . ipv4_addr; }`,
      `add set ${t} ${SERVICE_SET} { type ipv4_addr . ipv4_addr . inet_service; }`,
      `add rule ${t} output ip saddr . ip daddr @${LINK_SET} drop`,
      `add rule ${t} output ip daddr . ip saddr @${LINK_SET} drop`,
      `add rule ${t} output ip saddr . ip daddr . tcp dport @${SERVICE_SET} drop`,
      `add rule ${t} output ip daddr . ip saddr . tcp sport @${SERVICE_SET} drop`,
    ]);
    openTables.add(this);
    installExitHook();
  }

  /** Drops every packet between `a` and `b`, both ways. Cutting a cut link is a no-op. */
  cut(a: string, b: string): void {
    this.#apply([`add element inet ${this.table} ${LINK_SET} { ${linkElement(a, b)} }`]);
  }

  /** Lets packets between `a` and `b` through again (healing a link that is not cut is a no-op). */
  heal(a: string, b: string): void {
    if (this.#has(LINK_SET, linkElement(a, b)))
      this.#apply([`delete element inet ${this.table} ${LINK_SET} { ${linkElement(a, b)} }`]);
  }

  /**
   * Drops the TCP connections from `client` to `server:port` only (both directions), so other
   * listeners of the same host stay reachable from `client` (e.g. a broker's health probes).
   */
  cutService(client: string, server: string, port: number): void {
    this.#apply([
      `add element inet ${this.table} ${SERVICE_SET} { ${serviceElement(client, server, port)} }`,
    ]);
  }

  healService(client: string, server: string, port: number): void {
    const element = serviceElement(client, server, port);
    if (this.#has(SERVICE_SET, element))
      this.#apply([`delete element inet ${this.table} ${SERVICE_SET} { ${element} }`]);
  }

  /** Heals every cut of this instance. */
  healAll(): void {
    this.#apply([`flush set inet ${this.table} ${LINK_SET}`, `flush set inet ${this.table} ${SERVICE_SET}`]);
  }

  /** The cut address pairs, as nft lists them (`a . b`), for assertions and failure messages. */
  cuts(): string[] {
    return [...this.#elements(LINK_SET), ...this.#elements(SERVICE_SET)];
  }

  /** Deletes the table and with it every cut. Idempotent. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    openTables.delete(this);
    deleteTable(this.#nft, this.table);
  }

  #apply(commands: readonly string[]): void {
    if (this.#closed) throw new Error(`nft table ${this.table} is closed`);
    // One `nft -f` batch is one transaction: all of it applies or none.
    const result = spawnSync(this.#nft, ['-f', '-'], { input: `${commands.join('\n')}\n`, encoding: 'utf8' });
    if (result.status !== 0)
      throw new Error(`nft failed (${result.error?.message ?? `exit ${result.status}`}): ${result.stderr}`);
  }

  #has(set: string, element: string): boolean {
    return this.#elements(set).includes(element);
  }

  #elements(set: string): string[] {
    const listing = execFileSync(this.#nft, ['-j', 'list', 'set', 'inet', this.table, set], {
      encoding: 'utf8',
    });
    const parsed = JSON.parse(listing) as { nftables: { set?: { elem?: unknown[] } }[] };
    const elements = parsed.nftables.find((entry) => entry.set)?.set?.elem ?? [];
    return elements.map((element) => {
      const concat = (element as { concat?: unknown[] }).concat ?? [element];
      return concat.map(String).join(' . ');
    });
  }
}

/** The pair in a fixed order, so `heal(b, a)` finds what `cut(a, b)` added (the rules match both orders). */
function linkElement(a: string, b: string): string {
  const [first, second] = [ipv4(a), ipv4(b)].sort();
  return `${first} . ${second}`;
}

function serviceElement(client: string, server: string, port: number): string {
  if (!Number.isInteger(port) || port < 1 || port > 65_535) throw new Error(`not a TCP port: ${port}`);
  return `${ipv4(client)} . ${ipv4(server)} . ${port}`;
}

function ipv4(address: string): string {
  // Only IPv4 rules are written; anything else would silently never match.
  if (!isIPv4(address)) throw new Error(`link cuts take IPv4 addresses, not ${JSON.stringify(address)}`);
  return address;
}

function checkCanCut(nft: string, uid: number | undefined): void {
  const probe = spawnSync(nft, ['--version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0)
    throw new LinkCutsUnavailableError(
      `link cuts need nftables: ${nft} did not run (${probe.error?.message ?? `exit ${probe.status}`}); scripts/ensure-system-deps.sh installs it`,
    );
  if (uid !== 0)
    throw new LinkCutsUnavailableError(
      `link cuts need root to change the nft ruleset; this process runs as uid ${uid ?? 'unknown'}`,
    );
}

function deleteTable(nft: string, table: string): void {
  const result = spawnSync(nft, ['delete', 'table', 'inet', table], { encoding: 'utf8' });
  if (result.status !== 0 && !/No such file or directory/.test(result.stderr ?? ''))
    throw new Error(`nft could not delete table ${table}: ${result.stderr}`);
}

/** Our tables, by name; for tests that check nothing is left behind. */
export function nemesisTables(nft = NFT_BINARY): string[] {
  const listing = execFileSync(nft, ['list', 'tables'], { encoding: 'utf8' });
  return listing
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter((words) => words[0] === 'table' && words[2]?.startsWith(TABLE_PREFIX))
    .map((words) => words[2]!);
}

/** A test process killed before its cleanup leaves its table; whoever comes next removes it. */
function deleteTablesOfDeadProcesses(nft: string): void {
  for (const table of nemesisTables(nft)) {
    const pid = Number(table.slice(TABLE_PREFIX.length).split('_')[0]);
    if (Number.isInteger(pid) && pid !== process.pid && !isAlive(pid)) deleteTable(nft, table);
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // An exit handler may only do synchronous work, which is why every nft call here is synchronous.
  process.on('exit', () => {
    for (const cuts of openTables) cuts.close();
  });
}
