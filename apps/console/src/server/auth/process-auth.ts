import 'server-only';
import { InternalAdmin } from '@weir/protocol';
import { env } from '../../env';
import { createBrokerClients, processBrokerClients, processBrokerConnection } from '../admin-client';
import { gatewayLogger } from '../logger';
import type { ConsoleAuth } from './console-auth';
import { type ConsoleAuthParts, createConsoleAuth } from './console-auth-factory';

// Kept on globalThis so that Next.js's dev-mode module reloads keep the sessions.
const PROCESS_KEY = Symbol.for('weir.console.auth');
type ProcessSlot = { [PROCESS_KEY]?: ConsoleAuthParts };

/** The process's authentication parts: the mode from WEIR_CONSOLE_AUTH, sessions in memory. */
export function processConsoleAuthParts(): ConsoleAuthParts {
  const slot = globalThis as ProcessSlot;
  slot[PROCESS_KEY] ??= createConsoleAuth({
    ...processBrokerConnection(),
    mode: env().auth,
    now: Date.now,
    shared: processBrokerClients(),
    logger: gatewayLogger(),
    clientsFor: (principal) =>
      createBrokerClients({
        ...processBrokerConnection(),
        actAs: principal,
        clientId: 'weir-console-user',
        createInternalAdmin: (client) => new InternalAdmin(client),
      }),
  });
  return slot[PROCESS_KEY];
}

/** The process's authentication. */
export function processConsoleAuth(): ConsoleAuth {
  return processConsoleAuthParts().auth;
}
