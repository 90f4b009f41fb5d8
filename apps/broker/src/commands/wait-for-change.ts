import type { PartitionLog } from '../log/partition-log';

/**
 * Resolves at the first append (or high watermark change) on any of `logs`, after `timeoutMs`, or
 * when `signal` aborts, whichever comes first, and unsubscribes from everything. This is what
 * turns a long-polling Fetch into push delivery: no polling loop, the append wakes the waiter.
 */
export function waitForChange(
  logs: readonly PartitionLog[],
  timeoutMs: number,
  signal: AbortSignal,
): Promise<void> {
  return new Promise<void>((resolve) => {
    const unsubscribes: (() => void)[] = [];
    let timer: NodeJS.Timeout | undefined;
    const finish = () => {
      if (timer === undefined) return;
      clearTimeout(timer);
      timer = undefined;
      for (const unsubscribe of unsubscribes) unsubscribe();
      signal.removeEventListener('abort', finish);
      resolve();
    };
    timer = setTimeout(finish, timeoutMs);
    for (const log of logs) unsubscribes.push(log.subscribe(finish));
    signal.addEventListener('abort', finish, { once: true });
    if (signal.aborted) finish();
  });
}
