import { readFileSync } from 'node:fs';
import type { TlsOptions } from '@weir/protocol';
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
  // PEM files, named like the token's file and the broker's tls.caFile/certFile/keyFile.
  WEIR_CONSOLE_INTERNAL_TLS_CA_FILE: z.string().min(1).optional(),
  WEIR_CONSOLE_INTERNAL_TLS_CERT_FILE: z.string().min(1).optional(),
  WEIR_CONSOLE_INTERNAL_TLS_KEY_FILE: z.string().min(1).optional(),
  WEIR_CONSOLE_AUTH: z.enum(['none', 'login']).default('none'),
  // Host names (or addresses) the console is reached under besides loopback and this machine's own
  // addresses, comma-separated: a reverse proxy's public name, say.
  WEIR_CONSOLE_ALLOWED_HOSTS: z
    .string()
    .trim()
    .regex(
      /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9._-]+)(\s*,\s*(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9._-]+))*$/,
      'expected host names or addresses separated by commas, without ports (console.example.com,10.0.0.5)',
    )
    .optional(),
  // Next.js records the address `next start` listens on here (http://host:port) before the first
  // request; the console accepts its host name as one of its own.
  __NEXT_PRIVATE_ORIGIN: z.string().optional(),
  // Set by Next.js: `development` under `next dev`.
  NODE_ENV: z.string().optional(),
  WEIR_CONSOLE_LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
    .default('info'),
});

export type LogLevel = z.infer<typeof envSchema>['WEIR_CONSOLE_LOG_LEVEL'];

/** Where the internal listener's token comes from; read when the first request needs the broker. */
export type TokenSource =
  | { readonly kind: 'value'; readonly token: string }
  | { readonly kind: 'file'; readonly path: string }
  /** No token is set, but a client certificate is: it stands in for the token (an empty one). */
  | { readonly kind: 'certificate' }
  | { readonly kind: 'missing' };

/**
 * TLS to the internal listener (PEM file paths, read when the first request needs the broker). A
 * client certificate the broker trusts (`listeners.internal.trustedCertificatePrincipals`)
 * authenticates the console without a token.
 */
export interface InternalTlsFiles {
  /** The CA the broker's certificate is checked against; Node's bundled public CAs when absent. */
  readonly caFile: string | undefined;
  /** The console's client certificate and its key: both or neither. */
  readonly clientCertificate: { readonly certFile: string; readonly keyFile: string } | undefined;
}

export interface ConsoleEnv {
  /** The broker's internal listener(s), `host:port`. */
  readonly brokerBootstrap: readonly string[];
  readonly token: TokenSource;
  /** TLS to the internal listener; plaintext when undefined. */
  readonly internalTls: InternalTlsFiles | undefined;
  readonly logLevel: LogLevel;
  /**
   * `none`: everyone who reaches the console acts as the console (a broker whose client listener
   * has no SASL). `login`: people log in with a broker user and the console acts for them, so the
   * broker's ACLs apply to each request.
   */
  readonly auth: ConsoleAuthMode;
  /**
   * Host names the console answers under besides the loopback names and this machine's addresses
   * (lower case, without port): WEIR_CONSOLE_ALLOWED_HOSTS and the host `next start` listens on.
   * A request whose Host header names anything else is refused, so a DNS-rebinding page cannot
   * reach the console (docs/architecture.md §8).
   */
  readonly allowedHosts: readonly string[];
  /** `next dev`: pages need 'unsafe-eval' in their script policy for fast refresh. */
  readonly development: boolean;
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
  const internalTls = internalTlsFiles(values);
  const token: TokenSource =
    values.WEIR_CONSOLE_INTERNAL_TOKEN !== undefined
      ? { kind: 'value', token: values.WEIR_CONSOLE_INTERNAL_TOKEN }
      : values.WEIR_CONSOLE_INTERNAL_TOKEN_FILE !== undefined
        ? { kind: 'file', path: values.WEIR_CONSOLE_INTERNAL_TOKEN_FILE }
        : internalTls?.clientCertificate !== undefined
          ? { kind: 'certificate' }
          : { kind: 'missing' };
  return {
    brokerBootstrap: values.WEIR_CONSOLE_BROKER.split(','),
    token,
    internalTls,
    logLevel: values.WEIR_CONSOLE_LOG_LEVEL,
    auth: values.WEIR_CONSOLE_AUTH,
    allowedHosts: allowedHosts(values.WEIR_CONSOLE_ALLOWED_HOSTS, values.__NEXT_PRIVATE_ORIGIN),
    development: values.NODE_ENV === 'development',
  };
}

/** The configured host names, and the listen host when it is a name or a specific address. */
function allowedHosts(configured: string | undefined, listenOrigin: string | undefined): string[] {
  const hosts = (configured ?? '')
    .split(',')
    .map((host) => host.trim().toLowerCase())
    .filter((host) => host !== '');
  if (listenOrigin !== undefined && URL.canParse(listenOrigin)) {
    const listenHost = new URL(listenOrigin).hostname.toLowerCase();
    if (listenHost !== '' && !hosts.includes(listenHost)) hosts.push(listenHost);
  }
  return hosts;
}

/**
 * The internal listener's token. A missing token is an error naming both variables; it is raised
 * when a request first needs the broker, so the console still starts and reports it as a health
 * reason instead of crashing.
 */
export function resolveToken(source: TokenSource): string {
  if (source.kind === 'value') return source.token;
  // WEIR-TOKEN with an empty token: the broker accepts it only from a certificate it trusts.
  if (source.kind === 'certificate') return '';
  if (source.kind === 'missing') {
    throw new ConsoleConfigError(
      'WEIR_CONSOLE_INTERNAL_TOKEN',
      'WEIR_CONSOLE_INTERNAL_TOKEN (or WEIR_CONSOLE_INTERNAL_TOKEN_FILE) is not set: the console needs the ' +
        "broker's internal listener token (listeners.internal.token) to reach the broker, or a client " +
        'certificate the broker trusts (WEIR_CONSOLE_INTERNAL_TLS_CERT_FILE and WEIR_CONSOLE_INTERNAL_TLS_KEY_FILE).',
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

/**
 * The TLS options of the console's connections to the internal listener, or undefined for
 * plaintext. Files are read on each call (once per set of broker clients); an unreadable one is an
 * error naming its variable, raised like a missing token when a request first needs the broker.
 */
export function resolveInternalTls(files: InternalTlsFiles | undefined): TlsOptions | undefined {
  if (files === undefined) return undefined;
  const { caFile, clientCertificate } = files;
  return {
    ...(caFile === undefined ? {} : { ca: readPem('WEIR_CONSOLE_INTERNAL_TLS_CA_FILE', caFile) }),
    ...(clientCertificate === undefined
      ? {}
      : {
          cert: readPem('WEIR_CONSOLE_INTERNAL_TLS_CERT_FILE', clientCertificate.certFile),
          key: readPem('WEIR_CONSOLE_INTERNAL_TLS_KEY_FILE', clientCertificate.keyFile),
        }),
  };
}

/**
 * The TLS variables as one setting: any of them turns TLS on. A certificate without its key (or the
 * reverse) is refused at once, since half a client identity can never authenticate.
 */
function internalTlsFiles(values: z.infer<typeof envSchema>): InternalTlsFiles | undefined {
  const caFile = values.WEIR_CONSOLE_INTERNAL_TLS_CA_FILE;
  const certFile = values.WEIR_CONSOLE_INTERNAL_TLS_CERT_FILE;
  const keyFile = values.WEIR_CONSOLE_INTERNAL_TLS_KEY_FILE;
  if ((certFile === undefined) !== (keyFile === undefined)) {
    const [missing, given] =
      certFile === undefined
        ? ['WEIR_CONSOLE_INTERNAL_TLS_CERT_FILE', 'WEIR_CONSOLE_INTERNAL_TLS_KEY_FILE']
        : ['WEIR_CONSOLE_INTERNAL_TLS_KEY_FILE', 'WEIR_CONSOLE_INTERNAL_TLS_CERT_FILE'];
    throw new ConsoleConfigError(missing, `${missing}: required when ${given} is set.`);
  }
  if (caFile === undefined && certFile === undefined) return undefined;
  return {
    caFile,
    clientCertificate: certFile === undefined || keyFile === undefined ? undefined : { certFile, keyFile },
  };
}

/** A PEM file's text; the error names the variable and the path, never the contents (a key). */
function readPem(variable: string, path: string): string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConsoleConfigError(variable, `${variable}: cannot read ${path} (${(error as Error).message}).`);
  }
  if (!text.includes('-----BEGIN ')) {
    throw new ConsoleConfigError(variable, `${variable}: ${path} does not hold PEM.`);
  }
  return text;
}

let processEnv: ConsoleEnv | undefined;

/** The process's environment, parsed once on first use (not at import, so builds need none). */
export function env(): ConsoleEnv {
  processEnv ??= parseEnv(process.env);
  return processEnv;
}
