import type { Command } from 'commander';
import type { CliDeps } from './cli-deps';
import type { ExitReporter } from './global-options';

/** `weir certs dev`. The module (and node-forge) loads only when the command runs. */
export function registerCertsCommands(
  program: Command,
  deps: Pick<CliDeps, 'stdout' | 'stderr'>,
  exit: ExitReporter,
): void {
  const certs = program.command('certs').description('make certificates for trying TLS');
  certs
    .command('dev')
    .description('create a local CA, a server certificate and client certificates (PEM) for development')
    .option('--out <dir>', 'directory to write to', './certs')
    .option('--hosts <list>', 'comma-separated IP addresses and names of the broker', commaList, [
      '127.0.0.1',
      'localhost',
    ])
    .option(
      '--client <names>',
      'comma-separated client names, one certificate each (CN=<name>); repeatable',
      collectNames,
      [],
    )
    .option('--force', 'replace existing files', false)
    .action(async (options: { out: string; hosts: string[]; client: string[]; force: boolean }) => {
      const { certsDevCommand } = await import('./certs-dev-command');
      exit(
        await certsDevCommand(
          { out: options.out, hosts: options.hosts, clients: options.client, force: options.force },
          deps,
        ),
      );
    });
}

function commaList(text: string): string[] {
  return text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
}

function collectNames(text: string, previous: readonly string[]): string[] {
  return [...previous, ...commaList(text)];
}
