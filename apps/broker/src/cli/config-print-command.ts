import { stringify } from 'yaml';
import type { ConfigFlags } from '../config/flag-overrides';
import { redactConfig } from '../config/redact-config';
import type { CliDeps } from './cli-deps';
import { EXIT_BAD_CONFIG, loadConfigOrReport } from './load-config-or-report';

/** `weir config print`: the effective configuration, defaults included, as YAML with secrets masked. */
export async function configPrintCommand(
  flags: ConfigFlags,
  deps: Pick<CliDeps, 'env' | 'stdout' | 'stderr'>,
): Promise<number> {
  const config = await loadConfigOrReport(flags, deps);
  if (!config) return EXIT_BAD_CONFIG;
  deps.stdout.write(stringify(redactConfig(config)));
  return 0;
}
