import type { Admin, Client } from '@weir/protocol';
import type { Command } from 'commander';
import type { ClientCliDeps } from './client-cli-deps';
import { bootstrapFlag, securityFlags } from './global-options';

/**
 * Runs a client command from its commander action. The SDK and the command's module are imported
 * only here, when the command runs, so `weir config print`, `--help` and usage errors do not pay
 * for loading them (the same reason main.ts loads the broker lazily).
 */
export async function runClientCommand(
  command: Command,
  deps: ClientCliDeps,
  work: (client: Client) => Promise<number | undefined>,
): Promise<number> {
  const { withClient } = await import('./with-client');
  return withClient(bootstrapFlag(command), deps, work, securityFlags(command));
}

/** {@link runClientCommand} for commands that only need an {@link Admin}. */
export function runAdminCommand(
  command: Command,
  deps: ClientCliDeps,
  work: (admin: Admin) => Promise<number | undefined>,
): Promise<number> {
  return runClientCommand(command, deps, async (client) => {
    const { Admin } = await import('@weir/protocol');
    return work(new Admin(client));
  });
}
