import type { PartitionLog } from '../log/partition-log';

/** A subscription to appends on some logs, started before a read so no append can slip past. */
export interface ChangeWatch {
  /**
   * Resolves at the first append (or high watermark change) since the watch started (at once if
   * one already happened), after `timeoutMs`, or when `signal` aborts, and then unsubscribes.
   */
  wait(timeoutMs: number, signal: AbortSignal): Promise<void>;
  /** Unsubscribes without waiting. */
  cancel(): void;
}

/**
 * Subscribes to every log in `logs`. This is what turns a long-polling Fetch into push delivery:
 * no polling loop, the append wakes the waiter. Watch first, then read, then wait: an append that
 * lands while the read is still in progress is remembered instead of lost.
 */
export function watchForChange(logs: readonly PartitionLog[]): ChangeWatch {
  let changed = false;
  let wake: (() => void) | undefined;
  const onChange = () => {
    changed = true;
    wake?.();
  };
  const unsubscribes = logs.map((log) => log.subscribe(onChange));
  const cancel = () => {
    for (const unsubscribe of unsubscribes.splice(0)) unsubscribe();
  };
  return {
    cancel,
    wait(timeoutMs, signal) {
      return new Promise<void>((resolve) => {
        let timer: NodeJS.Timeout | undefined;
        const finish = () => {
          clearTimeout(timer);
          wake = undefined;
          cancel();
          signal.removeEventListener('abort', finish);
          resolve();
        };
        if (changed || signal.aborted) {
          finish();
          return;
        }
        wake = finish;
        timer = setTimeout(finish, timeoutMs);
        signal.addEventListener('abort', finish, { once: true });
      });
    },
  };
}
