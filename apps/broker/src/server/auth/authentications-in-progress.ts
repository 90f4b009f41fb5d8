/** How many authentications may be in progress at once from one client address and for one user. */
export interface AuthenticationConcurrencyLimits {
  readonly maxPerAddress: number;
  readonly maxPerUser: number;
}

/** What {@link AuthenticationsInProgress.tryStart} says: a slot to give back, or why there is none. */
export type AuthenticationStart =
  | { readonly started: true; readonly slot: AuthenticationSlot }
  | { readonly started: false; readonly refusedFor: 'address' | 'user' };

/** One exchange's place in the counts, given back once when the exchange ends or its connection closes. */
export interface AuthenticationSlot {
  release(): void;
}

/**
 * Counts the SASL exchanges in progress (from their first SaslAuthenticate round until they end,
 * their failure delay included) per client address and per claimed user name, and refuses one that
 * would go past a limit before its credentials are checked. Fifty parallel guesses from one
 * address are then not fifty password checks and fifty delayed answers at once: the first few run
 * and wait out their growing delay, the rest are refused at once. An entry exists only while an
 * exchange holds it, so the tables are bounded by the open connections.
 */
export class AuthenticationsInProgress {
  readonly #byAddress = new Map<string, number>();
  readonly #byUser = new Map<string, number>();

  constructor(private readonly limits: AuthenticationConcurrencyLimits) {}

  /** Exchanges in progress from `address` now. */
  fromAddress(address: string): number {
    return this.#byAddress.get(address) ?? 0;
  }

  /** Exchanges in progress for `username` now. */
  forUser(username: string): number {
    return this.#byUser.get(username) ?? 0;
  }

  /** Starts an exchange from `address` for `username` (undefined when the mechanism names none). */
  tryStart(address: string, username: string | undefined): AuthenticationStart {
    if (this.fromAddress(address) >= this.limits.maxPerAddress)
      return { started: false, refusedFor: 'address' };
    if (username !== undefined && this.forUser(username) >= this.limits.maxPerUser) {
      return { started: false, refusedFor: 'user' };
    }
    increment(this.#byAddress, address);
    if (username !== undefined) increment(this.#byUser, username);
    let released = false;
    return {
      started: true,
      slot: {
        release: () => {
          if (released) return;
          released = true;
          decrement(this.#byAddress, address);
          if (username !== undefined) decrement(this.#byUser, username);
        },
      },
    };
  }
}

function increment(counts: Map<string, number>, key: string): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

function decrement(counts: Map<string, number>, key: string): void {
  const count = (counts.get(key) ?? 0) - 1;
  if (count < 0) throw new Error(`authentication count of ${key} went negative`);
  if (count === 0) counts.delete(key);
  else counts.set(key, count);
}
