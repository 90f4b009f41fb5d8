import type { Writable } from 'node:stream';
import { Client } from '@weir/protocol';
import type { Environment } from '../config/env-overrides';
import { bootstrapServersFrom } from './bootstrap-servers';
import { clientSecurityFrom } from './client-security';
import type { SecurityFlags } from './global-options';
import { reportClientError } from './report-client-error';

/** What every command that talks to a broker needs from its surroundings. */
export interface WithClientDeps {
  env: Environment;
  stderr: Writable;
}

/**
 * Runs a command against the cluster: connects a {@link Client} to the bootstrap servers, runs
 * `work`, closes the client, and turns failures into an exit status with a message on stderr.
 * `work` returns its own exit status, or nothing for 0.
 */
export async function withClient(
  bootstrapFlag: string | undefined,
  deps: WithClientDeps,
  work: (client: Client) => Promise<number | undefined>,
  security: SecurityFlags = {},
): Promise<number> {
  let client: Client | undefined;
  try {
    client = new Client({
      bootstrapServers: bootstrapServersFrom(bootstrapFlag, deps.env),
      clientId: 'weir-cli',
      ...clientSecurityFrom(security, deps.env),
    });
    return (await work(client)) ?? 0;
  } catch (error) {
    return reportClientError(error, deps.stderr);
  } finally {
    await client?.close();
  }
}
