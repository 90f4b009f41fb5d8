import { killLiveChildren } from '../broker/run-child';

/** How a bench run is watched. */
export interface BenchRunOptions {
  /** The npm script's name after `bench:`, for the timeout message. */
  name: string;
  /** The whole run is killed after this long. */
  timeoutMs: number;
  /** What the timeout kills, for its message: `the broker`, `the brokers`. */
  killing: string;
  /** Cleans up what the killed run leaves behind (scratch files), after its children are killed. */
  onTimeout?: () => void;
}

/**
 * Runs a bench's `main` and exits with its outcome: 0 when it finishes, 1 when it throws or runs
 * past its timeout. Either failure SIGKILLs every child process still running, so a stuck broker
 * never outlives the run.
 */
export function runBenchMain(main: () => Promise<void>, options: BenchRunOptions): void {
  const watchdog = setTimeout(() => {
    console.error(`bench:${options.name} exceeded ${options.timeoutMs} ms; killing ${options.killing}`);
    killLiveChildren();
    options.onTimeout?.();
    process.exit(1);
  }, options.timeoutMs);
  watchdog.unref();

  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      killLiveChildren();
      process.exit(1);
    },
  );
}
