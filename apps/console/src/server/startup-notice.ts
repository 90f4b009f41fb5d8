import type { ConsoleEnv } from '../env';
import type { Logger } from './logger';

/** The start-up line of a console without login: what that mode gives to whom (issue #15). */
export const OPEN_MODE_WARNING =
  "The console runs without login (WEIR_CONSOLE_AUTH=none): everyone who can reach it acts with the console's " +
  'full rights on the broker, as User:weir-internal, a super user on the internal listener (create users, change ' +
  'passwords, grant ACLs, delete topics). Keep it on loopback, or set WEIR_CONSOLE_AUTH=login.';

/** Logs how the console runs: a warning without login, the mode and allowed hosts either way. */
export function logStartupNotice(consoleEnv: ConsoleEnv, logger: Logger): void {
  const details = {
    auth: consoleEnv.auth,
    allowedHosts: ['loopback', 'local addresses', ...consoleEnv.allowedHosts],
  };
  if (consoleEnv.auth === 'none') logger.warn(details, OPEN_MODE_WARNING);
  else
    logger.info(details, 'The console runs in login mode: every request acts as its logged-in broker user.');
}
