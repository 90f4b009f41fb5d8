import { readFileSync } from 'node:fs';
import { z } from 'zod';

/*
 * The console's configuration. This is the only module that reads process.env: everything else
 * receives values from here, so tests pass their own and nothing changes behind their back.
 */

const bootstrapSchema = z
  .string()
  .trim()
  .regex(/^[^\s,:]+:\d{1,5}(,[^\s,:]+:\d{1,5})*$/, 'expected host:port[,host:port…]');

const envSchema = z.object({
  WEIR_CONSOLE_BROKER: bootstrapSchema.default('127.0.0.1:9093'),
  WEIR_CONSOLE_INTERNAL_TOKEN: z.string().min(1).optional(),
  WEIR_CONSOLE_INTERNAL_TOKEN_FILE: z.string().min(1).optional(),
  WEIR_CONSOLE_AUTH: z.enum(['none', 'login']).default('none'),
  WEIR_CONSOLE_LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
    .default('info'),
});

export type LogLevel = z.infer<typeof envSchema>['WEIR_CONSOLE_LOG_LEVEL'];

/** Where the internal listener's token comes from; read when the first request needs the broker. */
export type TokenSource =
  | { readonly kind: 'value'; readonly token: string }
  | { readonly kind: 'file'; readonly path: string }
  | { readonly kind: 'missing' };

export interface ConsoleEnv {
  /** The broker's internal listener(s), `host:port`. */
  readonly brokerBootstrap: readonly string[];
  readonly token: TokenSource;
  readonly logLevel: LogLevel;
  /**
   * `none`: everyone who reaches the console acts as the console (a broker whose client listener
   * has no SASL). `login`: people log in with a broker user and the console acts for them, so the
   * broker's ACLs apply to each request.
   */
  readonly auth: ConsoleAuthMode;
}

export type ConsoleAuthMode = 'none' | 'login';

/** A configuration problem that names the variable to fix. */
export class ConsoleConfigError extends Error {
  override readonly name = 'ConsoleConfigError';
  readonly variable: string;

  constructor(variable: string, message: string) {
    super(message);
    this.variable = variable;
  }
}

/** Parses an environment; a bad value throws a ConsoleConfigError naming the key and the reason. */
export function parseEnv(source: Readonly<Record<string, string | undefined>>): ConsoleEnv {
  const result = envSchema.safeParse(source);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const variable = String(issue.path[0] ?? 'environment');
    throw new ConsoleConfigError(variable, `${variable}: ${issue.message}`);
  }
  const values = result.data;
  const token: TokenSource =
    values.WEIR_CONSOLE_INTERNAL_TOKEN !== undefined
      ? { kind: 'value', token: values.WEIR_CONSOLE_INTERNAL_TOKEN }
      : values.WEIR_CONSOLE_INTERNAL_TOKEN_FILE !== undefined
        ? { kind: 'file', path: values.WEIR_CONSOLE_INTERNAL_TOKEN_FILE }
        : { kind: 'missing' };
  return {
    brokerBootstrap: values.WEIR_CONSOLE_BROKER.split(','),
    token,
    logLevel: values.WEIR_CONSOLE_LOG_LEVEL,
    auth: values.WEIR_CONSOLE_AUTH,
  };
}

/**
 * The internal listener's token. A missing token is an error naming both variables; it is raised
 * when a request first needs the broker, so the console still starts and reports it as a health
 * reason instead of crashing.
 */
export function resolveToken(source: TokenSource): string {
  if (source.kind === 'value') return source.token;
  if (source.kind === 'missing') {
    throw new ConsoleConfigError(
      'WEIR_CONSOLE_INTERNAL_TOKEN',
      'WEIR_CONSOLE_INTERNAL_TOKEN (or WEIR_CONSOLE_INTERNAL_TOKEN_FILE) is not set: the console needs the ' +
        "broker's internal listener token (listeners.internal.token) to reach the broker.",
    );
  }
  let text: string;
  try {
    text = readFileSync(source.path, 'utf8');
  } catch (error) {
    throw new ConsoleConfigError(
      'WEIR_CONSOLE_INTERNAL_TOKEN_FILE',
      `WEIR_CONSOLE_INTERNAL_TOKEN_FILE: cannot read ${source.path} (${(error as Error).message}).`,
    );
  }
  const token = text.trim();
  if (token === '') {
    throw new ConsoleConfigError(
      'WEIR_CONSOLE_INTERNAL_TOKEN_FILE',
      `WEIR_CONSOLE_INTERNAL_TOKEN_FILE: ${source.path} is empty.`,
    );
  }
  return token;
}

let processEnv: ConsoleEnv | undefined;

/** The process's environment, parsed once on first use (not at import, so builds need none). */
export function env(): ConsoleEnv {
  processEnv ??= parseEnv(process.env);
  return processEnv;
}
