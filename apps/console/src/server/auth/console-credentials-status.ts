import type { Logger } from '../logger';

/** Whether the broker accepts the console's own credentials (internal token or client certificate). */
export interface ConsoleCredentialsReport {
  /** `unknown` until the console has opened a connection to the internal listener. */
  readonly status: 'unknown' | 'accepted' | 'refused';
  /** When the status was last observed, or null while unknown. */
  readonly observedAtMs: number | null;
  /** What to fix when refused. */
  readonly message: string | null;
}

/**
 * What the console last learnt about its own credentials. A wrong internal token is the
 * operator's to fix, so it is logged (once per change, not once per login) and shown by the
 * health endpoint, never answered to a user as their wrong password.
 */
export class ConsoleCredentialsStatus {
  #report: ConsoleCredentialsReport = { status: 'unknown', observedAtMs: null, message: null };

  constructor(
    private readonly logger: Logger,
    private readonly now: () => number,
  ) {}

  get report(): ConsoleCredentialsReport {
    return this.#report;
  }

  /** Records an outcome of opening a connection (or of a call the broker refused the console). */
  observe(accepted: boolean, error?: Error): void {
    const previous = this.#report.status;
    const observedAtMs = this.now();
    if (accepted) {
      this.#report = { status: 'accepted', observedAtMs, message: null };
      if (previous === 'refused') this.logger.info('The broker accepts the console’s own credentials again.');
      return;
    }
    const message =
      'The broker refused the console’s own credentials: check WEIR_CONSOLE_INTERNAL_TOKEN (or ' +
      'WEIR_CONSOLE_INTERNAL_TOKEN_FILE) against the broker’s listeners.internal.token, or the client ' +
      'certificate against listeners.internal.trustedCertificatePrincipals. Nobody can log in until then.';
    this.#report = { status: 'refused', observedAtMs, message };
    if (previous !== 'refused') this.logger.error({ err: error }, message);
  }
}
