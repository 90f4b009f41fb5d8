import type { Counter } from 'prom-client';
import type { GroupScheduler } from './group/group-scheduler';
import type { Logger } from './logger';

/** How many warnings of one kind are written per interval before the rest are only counted. */
export interface WarningLimits {
  /** Lines of one kind written per interval. */
  readonly maxPerInterval: number;
  readonly intervalMs: number;
}

/** What the limiter counts: every warning by kind, and those it did not write. */
export interface WarningCounters {
  readonly warningsTotal: Counter<'kind'>;
  readonly warningsSuppressedTotal: Counter<'kind'>;
}

/** One kind's current interval. */
interface KindWindow {
  startMs: number;
  written: number;
  suppressed: number;
  /** Where the summary of this interval goes: the logger of its latest warning. */
  logger: Logger;
  /** Cancels the timer that writes this interval's summary, while one is set. */
  cancelSummary: (() => void) | undefined;
}

/**
 * Warnings that strangers can cause (refused connections, bad frames, refused requests, failed
 * authentications) go through here, so a flood of bad input cannot flood the log: per kind, at
 * most `maxPerInterval` lines per interval are written, and the rest are summed into one line
 * "suppressed K similar warnings in the last S s" when the interval ends. Every warning is
 * counted in `weir_log_warnings_total{kind}`, written or not. Kinds are fixed names chosen by the
 * broker, never client input, so the tables and metric labels stay bounded.
 */
export class WarningLimiter {
  readonly #windows = new Map<string, KindWindow>();

  constructor(
    private readonly limits: WarningLimits,
    private readonly counters: WarningCounters,
    private readonly scheduler: GroupScheduler,
  ) {}

  warn(kind: string, logger: Logger, fields: Record<string, unknown>, message: string): void {
    this.counters.warningsTotal.inc({ kind });
    const nowMs = this.scheduler.nowMs();
    let window = this.#windows.get(kind);
    if (window !== undefined && nowMs - window.startMs >= this.limits.intervalMs) {
      this.#summarize(kind, window);
      window = undefined;
    }
    if (window === undefined) {
      window = { startMs: nowMs, written: 0, suppressed: 0, logger, cancelSummary: undefined };
      this.#windows.set(kind, window);
    }
    window.logger = logger;
    if (window.written < this.limits.maxPerInterval) {
      window.written += 1;
      logger.warn({ ...fields, kind }, message);
      return;
    }
    window.suppressed += 1;
    this.counters.warningsSuppressedTotal.inc({ kind });
    if (window.cancelSummary === undefined) {
      const ended = window;
      ended.cancelSummary = this.scheduler.schedule(ended.startMs + this.limits.intervalMs - nowMs, () => {
        ended.cancelSummary = undefined;
        if (this.#windows.get(kind) === ended) this.#summarize(kind, ended);
      });
    }
  }

  /** Writes the summaries of every interval still open, as at shutdown. */
  flush(): void {
    for (const [kind, window] of this.#windows) this.#summarize(kind, window);
  }

  /** Ends `window`: its suppressed warnings become one line, and the kind starts afresh. */
  #summarize(kind: string, window: KindWindow): void {
    window.cancelSummary?.();
    window.cancelSummary = undefined;
    this.#windows.delete(kind);
    if (window.suppressed === 0) return;
    const seconds = Math.round(this.limits.intervalMs / 1000);
    window.logger.warn(
      { kind, suppressed: window.suppressed, intervalSeconds: seconds },
      `suppressed ${window.suppressed} similar warnings in the last ${seconds} s`,
    );
  }
}
