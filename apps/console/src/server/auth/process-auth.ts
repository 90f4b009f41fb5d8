import 'server-only';
import { InternalAdmin } from '@weir/protocol';
import { env } from '../../env';
import { createBrokerClients, processBrokerClients, processBrokerConnection } from '../admin-client';
import { ConsoleAuth } from './console-auth';

// Kept on globalThis so that Next.js's dev-mode module reloads keep the sessions.
const PROCESS_KEY = Symbol.for('weir.console.auth');
type ProcessSlot = { [PROCESS_KEY]?: ConsoleAuth };

/** The process's authentication: the mode from WEIR_CONSOLE_AUTH, sessions in memory. */
export function processConsoleAuth(): ConsoleAuth {
  const slot = globalThis as ProcessSlot;
  slot[PROCESS_KEY] ??= new ConsoleAuth({
    mode: env().auth,
    now: Date.now,
    // The console's own (token or certificate) connection asks; the broker throttles failures per username.
    verifyCredentials: async (username, password) => {
      const internal = processBrokerClients().internal();
      if (!(internal instanceof InternalAdmin)) throw new Error('the console needs the SDK InternalAdmin');
      return (await internal.verifyCredentials(username, password)).ok;
    },
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
