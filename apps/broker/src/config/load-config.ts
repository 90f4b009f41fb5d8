import { readFile as readFileFromDisk } from 'node:fs/promises';
import type { z } from 'zod';
import { type BrokerConfig, brokerConfigSchema } from './broker-config';
import { closestKey } from './closest-key';
import type { ConfigError } from './config-error';
import { listConfigKeys, listConfigSections } from './config-keys';
import { type ConfigOverride, findOverride, getIn, mergeOverrides } from './config-layers';
import { CONFIG_FILE_ENV_VAR, type Environment, envOverrides } from './env-overrides';
import { type ConfigFlags, flagOverrides } from './flag-overrides';
import { checkInterBrokerAuthentication } from './inter-broker-checks';
import { checkListenerTlsFiles } from './listener-tls-files';
import { CONFIG_FILE_KEY, parseConfigYaml } from './parse-config-yaml';
import { isSecretKey, REDACTED, redactConfig } from './redact-config';

export type LoadConfigResult = { ok: true; config: BrokerConfig } | { ok: false; errors: ConfigError[] };

export interface LoadConfigOptions {
  flags: ConfigFlags;
  /** The process environment; passed in so that this stays the only place that reads it. */
  env: Environment;
  /** Reads the configuration file and the TLS files it names; the disk by default, replaceable in tests. */
  readFile?: (path: string) => Promise<string>;
}

const KEYS = listConfigKeys(brokerConfigSchema);
const KNOWN_PATHS = [...KEYS.map((key) => key.dotted), ...listConfigSections(KEYS)];

/**
 * Builds the effective broker configuration from, lowest precedence first: the schema defaults, the
 * YAML file (`--config`, else `WEIR_CONFIG`), `WEIR_*` environment variables and flags. Every
 * problem found is returned at once, each naming its key, its source and the reason, so an operator
 * fixes a configuration in one pass instead of one error per start.
 */
export async function loadConfig(options: LoadConfigOptions): Promise<LoadConfigResult> {
  const { flags, env } = options;
  const errors: ConfigError[] = [];
  const overrides: ConfigOverride[] = [];

  const filePath = flags.config ?? env[CONFIG_FILE_ENV_VAR];
  if (filePath !== undefined) {
    const pathSource = flags.config !== undefined ? 'flag' : 'env';
    const file = await readConfigFile(filePath, options.readFile ?? readUtf8);
    if (!file.ok) {
      errors.push({ key: CONFIG_FILE_KEY, source: pathSource, reason: file.reason });
    } else {
      const parsed = parseConfigYaml(file.text, filePath);
      if (parsed.ok) overrides.push(...parsed.overrides);
      else errors.push(...parsed.errors);
    }
  }

  const fromEnv = envOverrides(env, KEYS);
  const fromFlags = flagOverrides(flags, KEYS);
  overrides.push(...fromEnv.overrides, ...fromFlags.overrides);
  errors.push(...fromEnv.errors, ...fromFlags.errors);

  const merged = mergeOverrides(overrides);
  const result = brokerConfigSchema.safeParse(merged.input);
  if (!result.success) {
    errors.push(...result.error.issues.flatMap((issue) => describeIssue(issue, merged)));
  } else {
    const readFile = options.readFile ?? readUtf8;
    const tlsProblems = await checkListenerTlsFiles(result.data, readFile);
    // The inter-broker check reads some of the same TLS files; each file is reported once.
    const reported = new Set(tlsProblems.map((problem) => problem.key));
    const interBrokerProblems = (await checkInterBrokerAuthentication(result.data, readFile)).filter(
      (problem) => !reported.has(problem.key),
    );
    for (const problem of [...tlsProblems, ...interBrokerProblems]) {
      const source = findOverride(merged.provenance, problem.key)?.source ?? 'default';
      errors.push({ key: problem.key, source, reason: problem.reason });
    }
  }
  if (result.success && result.data.cluster.etcdEndpoints.length > 0 && merged.input.nodeId === undefined) {
    // Standalone defaults to node 0; in a cluster two brokers defaulting alike would collide.
    errors.push({
      key: 'nodeId',
      source: 'default',
      reason: 'cluster mode (cluster.etcdEndpoints is set) needs an explicit nodeId, unique per broker',
    });
  }
  if (errors.length > 0 || !result.success) return { ok: false, errors };
  return { ok: true, config: result.data };
}

async function readUtf8(path: string): Promise<string> {
  return readFileFromDisk(path, 'utf8');
}

async function readConfigFile(
  path: string,
  read: (path: string) => Promise<string>,
): Promise<{ ok: true; text: string } | { ok: false; reason: string }> {
  try {
    return { ok: true, text: await read(path) };
  } catch (error) {
    return { ok: false, reason: `cannot read the configuration file ${path}: ${errorMessage(error)}` };
  }
}

/** Turns one zod issue into errors that name the key, where its value came from, and the value. */
function describeIssue(issue: z.core.$ZodIssue, merged: ReturnType<typeof mergeOverrides>): ConfigError[] {
  const path = issue.path.map(String);
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((name) => {
      const key = [...path, name].join('.');
      const suggestion = closestKey(key, KNOWN_PATHS);
      const override = findOverride(merged.provenance, key);
      return {
        key,
        source: override?.source ?? 'default',
        reason:
          `unknown key${override ? ` at ${override.origin}` : ''}` +
          (suggestion ? ` (did you mean ${suggestion}?)` : ''),
      };
    });
  }
  const key = path.length > 0 ? path.join('.') : '(root)';
  const override = findOverride(merged.provenance, key);
  const value = getIn(merged.input, issue.path as (string | number)[]);
  // A value holding secrets beneath it (security.bootstrapAdmin) is masked inside too.
  const shown = isSecretKey(path.at(-1) ?? '') ? REDACTED : preview(redactConfig(value));
  return [
    {
      key,
      source: override?.source ?? 'default',
      reason: override ? `${issue.message}; got ${shown} from ${override.origin}` : issue.message,
    },
  ];
}

function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
