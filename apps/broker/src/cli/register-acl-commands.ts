import type { Command } from 'commander';
import type { AclResourceFlags } from './acl-commands';
import type { ClientCliDeps } from './client-cli-deps';
import type { ExitReporter } from './global-options';
import {
  type InternalListenerFlags,
  runInternalCommand,
  withInternalOptions,
} from './internal-listener-command';
import { collectText } from './option-parsers';
import { runAdminCommand } from './run-client-command';

/** The resource flags of every `weir acl` command. */
function resourceOptions(command: Command): Command {
  return command
    .option('--topic <name>', 'a topic')
    .option('--group <id>', 'a consumer group')
    .option('--transactional-id <id>', 'a transactional id')
    .option('--cluster', 'the cluster (kafka-cluster)', false)
    .option('--prefixed', 'the name is a prefix (PREFIXED pattern)', false);
}

/**
 * `weir acl list|create|delete` (Kafka's ACL APIs on `--bootstrap-server`) and `weir acl effective`
 * (Weir's WeirDescribeEffectivePermissions, on the internal listener like `weir user`). Command
 * modules load when their command runs.
 */
export function registerAclCommands(program: Command, deps: ClientCliDeps, exit: ExitReporter): void {
  const acl = program.command('acl').description('list, create and delete ACLs (Kafka authorization)');

  resourceOptions(acl.command('list'))
    .description('ACLs that apply to a resource (literal, "*" and matching prefixes), or all ACLs')
    .option('--principal <principal>', 'only this principal’s ACLs, e.g. User:alice')
    .action((options: AclResourceFlags & { principal?: string }, command: Command) =>
      runAdminCommand(command, deps, async (admin) =>
        (await import('./acl-commands')).aclListCommand(admin, options, deps),
      ).then(exit),
    );

  resourceOptions(acl.command('create'))
    .description('allow or deny a principal operations on a resource')
    .option('--allow', 'an ALLOW ACL', false)
    .option('--deny', 'a DENY ACL (DENY wins over ALLOW)', false)
    .requiredOption('--principal <principal>', 'who, e.g. User:alice (User:* for everybody)')
    .option('--operation <operation>', 'READ, WRITE, DESCRIBE, ALL… (repeatable)', collectText, [])
    .option('--host <host>', 'the client address it applies to', '*')
    .action((options: CreateFlags, command: Command) =>
      runAdminCommand(command, deps, async (admin) => {
        const module = await import('./acl-commands');
        return module.aclCreateCommand(
          admin,
          { ...options, operations: options.operation.map(module.parseOperation) },
          deps,
        );
      }).then(exit),
    );

  resourceOptions(acl.command('delete'))
    .description('delete the ACLs a filter selects (asks to type their number unless --yes)')
    .option('--allow', 'only ALLOW ACLs', false)
    .option('--deny', 'only DENY ACLs', false)
    .option('--principal <principal>', 'only this principal’s ACLs')
    .option('--operation <operation>', 'only these operations (repeatable)', collectText, [])
    .option('--host <host>', 'only ACLs for this host')
    .option('--yes', 'do not ask for confirmation (needed when stdin is not a terminal)', false)
    .action((options: DeleteFlags, command: Command) =>
      runAdminCommand(command, deps, async (admin) => {
        const module = await import('./acl-commands');
        return module.aclDeleteCommand(
          admin,
          { ...options, operations: options.operation.map(module.parseOperation) },
          deps,
        );
      }).then(exit),
    );

  withInternalOptions(
    acl
      .command('effective')
      .description(
        'what a principal may do on every resource, as the broker decides it (through the internal listener)',
      )
      .requiredOption('--principal <principal>', 'who, e.g. User:alice')
      .option('--host <host>', 'the client address to assume (*: only ACLs for every host apply)', '*')
      .option('--json', 'print the whole answer as JSON, with the ACLs behind each verdict', false),
  ).action((flags: EffectiveFlags) =>
    runInternalCommand(flags, deps, async (session) =>
      (await import('./acl-effective-command')).aclEffectiveCommand(session.internal, flags, deps),
    ).then(exit),
  );
}

interface EffectiveFlags extends InternalListenerFlags {
  principal: string;
  host: string;
  json: boolean;
}

interface CreateFlags extends AclResourceFlags {
  allow: boolean;
  deny: boolean;
  principal: string;
  operation: string[];
  host: string;
}

interface DeleteFlags extends AclResourceFlags {
  allow: boolean;
  deny: boolean;
  principal?: string;
  operation: string[];
  host?: string;
  yes: boolean;
}
