import type { WeirError } from '../../errors/weir-error';
import { canTransition, type GroupConsumerState } from './group-consumer-state';
import { WakeSignal } from './wake-signal';

/**
 * Where a {@link GroupConsumer} stands, shared by its parts: the state of its life, the errors its
 * next polls report, and the fatal error that ended its membership. Every change of state or fatal
 * error wakes the sleepers of `wake`, so they look again.
 */
export class GroupConsumerStatus {
  #state: GroupConsumerState = 'new';
  /** Errors for the next polls, oldest first. */
  readonly errors: WeirError[] = [];
  /** A fatal group error: reported by every poll until the consumer is closed. */
  fatal: WeirError | undefined;
  /** Resolves the waiters of `waitForState` and the rebalance's backoff. */
  readonly wake = new WakeSignal();

  /** See {@link GroupConsumerState}. */
  get state(): GroupConsumerState {
    return this.#state;
  }

  /** Moves to `to` if the state table allows it; false when it does not. */
  setState(to: GroupConsumerState): boolean {
    if (!canTransition(this.#state, to)) return false;
    this.#state = to;
    this.wake.wakeAll();
    return true;
  }
}
