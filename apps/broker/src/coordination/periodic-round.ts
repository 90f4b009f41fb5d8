import type { GroupScheduler } from '../group/group-scheduler';
import type { CoordinatorLogger } from './coordinator-shards';

/**
 * A coordinator's clock-driven work (offset retention, transaction timeouts): one round every
 * `intervalMs` on the coordinator's scheduler, the next one scheduled only when the last is done,
 * so rounds never overlap; a failed round is logged and the next one still comes.
 */
export class PeriodicRound {
  #cancel: (() => void) | undefined;
  #running = false;

  constructor(
    private readonly options: {
      scheduler: GroupScheduler;
      intervalMs: number;
      logger: CoordinatorLogger;
      /** The log line of a failed round. */
      failure: string;
      round: () => Promise<unknown>;
    },
  ) {}

  /** Whether rounds are scheduled (a round in progress stops early once this turns false). */
  get running(): boolean {
    return this.#running;
  }

  /** Starts the rounds; harmless while they already run. */
  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#schedule();
  }

  stop(): void {
    this.#running = false;
    this.#cancel?.();
    this.#cancel = undefined;
  }

  #schedule(): void {
    const { scheduler, intervalMs, logger, failure, round } = this.options;
    this.#cancel = scheduler.schedule(intervalMs, () => {
      this.#cancel = undefined;
      round().then(
        () => {
          if (this.#running) this.#schedule();
        },
        (error: unknown) => {
          logger.warn({ err: error }, failure);
          if (this.#running) this.#schedule();
        },
      );
    });
  }
}
