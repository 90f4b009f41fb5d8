import { Command, CommanderError } from 'commander';
import { brokerStartCommand } from './broker-start-command';
import { registerCertsCommands } from './certs-register';
import type { CliDeps } from './cli-deps';
import { clientCliDeps } from './client-cli-deps';
import { addConfigOptions, configFlagsFrom } from './config-options';
import { configPrintCommand } from './config-print-command';
import { addGlobalOptions } from './global-options';
import { registerAclCommands } from './register-acl-commands';
import { registerAuditCommands } from './register-audit-commands';
import { registerClusterCommands } from './register-cluster-commands';
import { registerDataCommands } from './register-data-commands';
import { registerGroupCommands } from './register-group-commands';
import { registerLogCommands } from './register-log-commands';
import { registerPartitionCommands } from './register-partition-commands';
import { registerQuotaCommands } from './register-quota-commands';
import { registerReassignmentCommands } from './register-reassignment-commands';
import { registerTopicCommands } from './register-topic-commands';
import { registerTxnCommands } from './register-txn-commands';
import { registerUserCommands } from './register-user-commands';
import { EXIT_USAGE } from './usage-error';

/**
 * Runs the `weir` command line and returns the exit status instead of exiting, so the caller can
 * flush its output first and tests can call it in process.
 */
export async function runCli(argv: readonly string[], deps: CliDeps): Promise<number> {
  let exitCode = 0;
  const program = addGlobalOptions(new Command('weir'))
    .description('Weir: a message broker that speaks the Apache Kafka protocol')
    // Set before the subcommands are added, which inherit both settings.
    .exitOverride()
    .configureOutput({
      writeOut: (text) => deps.stdout.write(text),
      writeErr: (text) => deps.stderr.write(text),
    });

  // The commands that load the broker's configuration see the whole environment, the console's
  // and the client commands' variables included: the loader leaves those alone
  // (config/other-programs-variables.ts).
  const broker = program.command('broker').description('run the broker');
  addConfigOptions(broker.command('start').description('start the broker in the foreground')).action(
    async (options: Record<string, unknown>) => {
      exitCode = await brokerStartCommand(configFlagsFrom(options), deps);
    },
  );

  const config = program.command('config').description('inspect the configuration');
  addConfigOptions(
    config.command('print').description('print the effective configuration as YAML, secrets masked'),
  ).action(async (options: Record<string, unknown>) => {
    exitCode = await configPrintCommand(configFlagsFrom(options), deps);
  });

  registerCertsCommands(program, deps, (code) => {
    exitCode = code;
  });
  // Offline commands on a stopped broker's data directory.
  registerLogCommands(program, deps, (code) => {
    exitCode = code;
  });

  // The commands that talk to a running broker, through the SDK.
  const setExitCode = (code: number): void => {
    exitCode = code;
  };
  const clientDeps = clientCliDeps(deps);
  registerTopicCommands(program, clientDeps, setExitCode);
  const partition = registerPartitionCommands(program, clientDeps, setExitCode);
  registerDataCommands(program, clientDeps, setExitCode);
  registerGroupCommands(program, clientDeps, setExitCode);
  registerTxnCommands(program, clientDeps, setExitCode);
  registerUserCommands(program, clientDeps, setExitCode);
  registerClusterCommands(program, clientDeps, setExitCode);
  registerAuditCommands(program, clientDeps, setExitCode);
  registerReassignmentCommands(partition, broker, clientDeps, setExitCode);
  registerAclCommands(program, clientDeps, setExitCode);
  registerQuotaCommands(program, clientDeps, setExitCode);

  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    // Commander reports help and usage errors by throwing under exitOverride; help exits 0.
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : EXIT_USAGE;
    throw error;
  }
  return exitCode;
}
