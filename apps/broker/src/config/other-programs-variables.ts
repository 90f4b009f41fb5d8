/*
 * The `WEIR_` variables that belong to the repository's other programs, not to the broker.
 *
 * The broker refuses a `WEIR_` variable that names none of its settings (env-overrides.ts), so a
 * misspelt one cannot silently leave a default. But it is not alone in that namespace, and it
 * meets the others' variables: `npm start` (scripts/start.mjs) hands the broker the environment it
 * was started with, so `WEIR_CONSOLE_AUTH=login npm start` (README, Security) passes the console's
 * variable to the broker as well, and an operator's shell keeps the client commands'
 * `WEIR_CLIENT_SASL_PASSWORD` exported while it starts a broker. Refusing those would stop the
 * broker from starting for a variable meant for someone else.
 *
 * The rule goes by namespace, one per program, each checked by its owner:
 * - `WEIR_CONSOLE_*`: the console's (apps/console/src/env.ts; the README's console table);
 * - `WEIR_CLIENT_*` and `WEIR_BOOTSTRAP_SERVER`: the `weir` client commands' (cli/global-options.ts).
 *
 * A namespace rather than a list of names, because the console's list lives in the console, which
 * the broker does not depend on, and a copy here would drift from it. No broker setting's variable
 * lies in these namespaces (load-config.test.ts checks it for every key), so a broker-style typo
 * (`WEIR_BROKER_ID`, `WEIR_LOG__FLUSH_MSS`) or a misspelt namespace (`WEIR_CONSOL_AUTH`) is still
 * refused; only a typo inside another program's namespace is left for that program to notice.
 */

/** The console's variables: `WEIR_CONSOLE_AUTH`, `WEIR_CONSOLE_INTERNAL_TOKEN`, … */
export const CONSOLE_ENV_PREFIX = 'WEIR_CONSOLE_';

/** The client commands' connection variables: `WEIR_CLIENT_SASL_PASSWORD`, … */
export const CLIENT_ENV_PREFIX = 'WEIR_CLIENT_';

/** The brokers the client commands connect to when `--bootstrap-server` is not given. */
export const BOOTSTRAP_SERVER_ENV_VAR = 'WEIR_BOOTSTRAP_SERVER';

/** Whether a variable is another program's, which the broker's configuration leaves alone. */
export function isOtherProgramsVariable(name: string): boolean {
  return (
    name.startsWith(CONSOLE_ENV_PREFIX) ||
    name.startsWith(CLIENT_ENV_PREFIX) ||
    name === BOOTSTRAP_SERVER_ENV_VAR
  );
}
