import { execFile, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type RunningBroker, type TemporaryDirectory, temporaryDirectory } from '@weir/test-broker';

const run = promisify(execFile);

/** Where Debian's Go packages keep their sources (golang-*-dev, scripts/ensure-system-deps.sh). */
const DEBIAN_GOPATH = '/usr/share/gocode';
const PROGRAMS_DIR = fileURLToPath(new URL('./clients/go/', import.meta.url));
/** Building Sarama and its dependencies from source takes about 10 s on a quiet machine. */
const GO_BUILD_TIMEOUT_MS = 180_000;
const GO_RUN_MAX_OUTPUT_BYTES = 64 * 1024 * 1024;

/**
 * Why the Go client tests cannot run here, or undefined when they can: only a missing `go`
 * command skips them (scripts/ensure-system-deps.sh installs golang-go and the client sources);
 * anything else that goes wrong with a build is a failure.
 */
export const GO_MISSING_REASON: string | undefined =
  spawnSync('go', ['version']).error === undefined
    ? undefined
    : 'skipped: the `go` command is not installed; scripts/ensure-system-deps.sh installs golang-go';

/** A Go client program built into a temporary directory, which {@link cleanup} removes. */
export interface GoProgram {
  readonly binary: string;
  /** Runs the program with `args` and resolves with its standard output; a non-zero exit fails. */
  run(args: readonly string[], timeoutMs: number): Promise<string>;
  cleanup(): Promise<void>;
}

/**
 * Builds `apps/broker/test/clients/go/<name>` in GOPATH mode against Debian's Go sources, with its
 * build cache in the same temporary directory as the binary. Nothing can be downloaded: there is
 * no module mode (GO111MODULE=off) and no proxy (GOPROXY=off), and the user's Go settings are not
 * read (GOENV=off). cgo is off because it only adds DataDog's zstd binding to Sarama, and the
 * legacy message formats these programs speak have no zstd.
 */
export async function buildGoProgram(name: string): Promise<GoProgram> {
  const directory: TemporaryDirectory = await temporaryDirectory(`weir-go-${name}-`);
  const binary = join(directory.path, name);
  const env = {
    PATH: process.env.PATH,
    HOME: directory.path,
    GO111MODULE: 'off',
    GOPATH: `${join(directory.path, 'gopath')}:${DEBIAN_GOPATH}`,
    GOCACHE: join(directory.path, 'cache'),
    GOPROXY: 'off',
    GOFLAGS: '-buildvcs=false',
    GOENV: 'off',
    CGO_ENABLED: '0',
  };
  try {
    await run('go', ['build', '-o', binary, '.'], {
      cwd: join(PROGRAMS_DIR, name),
      env,
      timeout: GO_BUILD_TIMEOUT_MS,
      maxBuffer: GO_RUN_MAX_OUTPUT_BYTES,
    });
  } catch (error) {
    await directory.cleanup();
    throw error;
  }
  return {
    binary,
    async run(args, timeoutMs) {
      const { stdout } = await run(binary, [...args], {
        timeout: timeoutMs,
        maxBuffer: GO_RUN_MAX_OUTPUT_BYTES,
      });
      return stdout;
    },
    cleanup: () => directory.cleanup(),
  };
}

/** How many requests of each `api vVERSION` the broker has counted, from its metrics. */
export async function requestCounts(running: RunningBroker): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const { labels, value } of (await running.metrics.requestsTotal.get()).values) {
    counts.set(`${String(labels.api)} v${String(labels.version)}`, value);
  }
  return counts;
}

/** The `api vVERSION` keys whose counts grew from `before` to `after`, sorted. */
export function requestsSent(before: Map<string, number>, after: Map<string, number>): string[] {
  return [...after]
    .filter(([key, count]) => count > (before.get(key) ?? 0))
    .map(([key]) => key)
    .sort();
}
