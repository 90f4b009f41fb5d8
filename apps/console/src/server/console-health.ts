import type { ConsoleCredentialsReport, ConsoleCredentialsStatus } from './auth/console-credentials-status';
import type { CredentialChecker } from './auth/credential-checks';

/** What `/api/health` answers. */
export interface ConsoleHealth {
  /** `degraded` while the broker refuses the console's own credentials. */
  readonly status: 'ok' | 'degraded';
  readonly service: 'weir-console';
  readonly consoleCredentials: ConsoleCredentialsReport;
}

export interface ConsoleHealthOptions {
  readonly credentials: CredentialChecker;
  readonly credentialsStatus: ConsoleCredentialsStatus;
  readonly now: () => number;
  /** An observation younger than this is answered as it is. */
  readonly maxAgeMs?: number;
  /** The health answer waits at most this long for a connection to the broker. */
  readonly probeTimeoutMs?: number;
}

/**
 * The console's health: the process answers whatever the broker does (a console that cannot reach
 * its broker still answers here, and reports the broker on its pages), and says whether the
 * broker accepts the console's own credentials, probing with a connection when it has not
 * learnt that lately.
 */
export async function consoleHealth(options: ConsoleHealthOptions): Promise<ConsoleHealth> {
  const { credentialsStatus } = options;
  const observedAtMs = credentialsStatus.report.observedAtMs;
  if (observedAtMs === null || options.now() - observedAtMs >= (options.maxAgeMs ?? 10_000)) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const probed = options.credentials.probe().then((outcome) => {
      if (outcome.kind === 'reachable') credentialsStatus.observe(true);
    });
    const waited = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, options.probeTimeoutMs ?? 2_000);
    });
    await Promise.race([probed, waited]);
    clearTimeout(timer);
  }
  const report = credentialsStatus.report;
  return {
    status: report.status === 'refused' ? 'degraded' : 'ok',
    service: 'weir-console',
    consoleCredentials: report,
  };
}
