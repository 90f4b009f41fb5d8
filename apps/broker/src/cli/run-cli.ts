import { Command, CommanderError } from 'commander';
import { brokerStartCommand } from './broker-start-command';
import type { CliDeps } from './cli-deps';
import { addConfigOptions, configFlagsFrom } from './config-options';
import { configPrintCommand } from './config-print-command';

/** Exit status for a command line that does not parse, like a bad configuration. */
const EXIT_USAGE = 2;

/**
 * Runs the `weir` command line and returns the exit status instead of exiting, so the caller can
 * flush its output first and tests can call it in process.
 */
export async function runCli(argv: readonly string[], deps: CliDeps): Promise<number> {
  let exitCode = 0;
  const program = new Command('weir')
    .description('Weir: a message broker that speaks the Apache Kafka protocol')
    // Set before the subcommands are added, which inherit both settings.
    .exitOverride()
    .configureOutput({
      writeOut: (text) => deps.stdout.write(text),
      writeErr: (text) => deps.stderr.write(text),
    });

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

  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    // Commander reports help and usage errors by throwing under exitOverride; help exits 0.
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : EXIT_USAGE;
    throw error;
  }
  return exitCode;
}
