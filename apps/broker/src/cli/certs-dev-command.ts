import { access, chmod, mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Writable } from 'node:stream';
import {
  createCertificateAuthority,
  type IssuedCertificate,
  issueClientCertificate,
  issueServerCertificate,
} from './certs-generate';
import { EXIT_USAGE } from './usage-error';

export interface CertsDevFlags {
  /** The directory to write to; created if missing. */
  readonly out: string;
  /** IP addresses and DNS names of the server certificate. */
  readonly hosts: readonly string[];
  /** One client certificate per name (CN=<name>). */
  readonly clients: readonly string[];
  /** Replace files that exist; otherwise an existing file stops the command before anything is written. */
  readonly force: boolean;
}

/** Where the files go; the disk in `weir`, a fake or a temporary directory in tests. */
export interface CertsFileSystem {
  makeDirectory(path: string): Promise<void>;
  exists(path: string): Promise<boolean>;
  /** Writes `text` with `mode`; refuses to replace an existing file unless `replace`. */
  writeFile(path: string, text: string, mode: number, replace: boolean): Promise<void>;
}

export interface CertsDevDeps {
  readonly stdout: Writable;
  readonly stderr: Writable;
  readonly files?: CertsFileSystem;
}

/** One file to write. Private keys are 0600: they are the secrets a certificate stands for. */
interface PemFile {
  readonly name: string;
  readonly text: string;
  readonly mode: number;
}

const PUBLIC = 0o644;
const PRIVATE = 0o600;
/** Names become file names; keep them to characters that need no quoting anywhere. */
const CLIENT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const RESERVED = new Set(['ca', 'server']);

export const diskCertsFileSystem: CertsFileSystem = {
  async makeDirectory(path) {
    await mkdir(path, { recursive: true });
  },
  async exists(path) {
    return access(path).then(
      () => true,
      () => false,
    );
  },
  async writeFile(path, text, mode, replace) {
    await writeFile(path, text, { mode, flag: replace ? 'w' : 'wx' });
    // `mode` only applies when the file is created; a replaced key must not keep looser bits.
    await chmod(path, mode);
  },
};

/**
 * `weir certs dev`: a local CA, a server certificate for `hosts` and client certificates, as PEM
 * files, then the broker configuration and kcat commands that use them. For trying TLS on a
 * laptop, not for production: the CA key sits next to the certificates it signed.
 */
export async function certsDevCommand(flags: CertsDevFlags, deps: CertsDevDeps): Promise<number> {
  const problem = checkFlags(flags);
  if (problem !== undefined) {
    deps.stderr.write(`error: ${problem}\n`);
    return EXIT_USAGE;
  }
  const directory = resolve(flags.out);
  const files = deps.files ?? diskCertsFileSystem;
  const ca = createCertificateAuthority();
  const pems: PemFile[] = [
    ...pair('ca', ca),
    ...pair('server', issueServerCertificate(ca, flags.hosts)),
    ...flags.clients.flatMap((name) => pair(name, issueClientCertificate(ca, { commonName: name }))),
  ];
  if (!flags.force) {
    // All checked before anything is written, so a refusal leaves no mix of old and new files.
    for (const pem of pems) {
      if (await files.exists(join(directory, pem.name))) {
        deps.stderr.write(`error: ${join(directory, pem.name)} exists; pass --force to replace the files\n`);
        return 1;
      }
    }
  }
  try {
    await files.makeDirectory(directory);
    // Keys first: if one cannot be written, no certificate points at a key that is not there.
    for (const pem of [...pems].sort((a, b) => a.mode - b.mode)) {
      await files.writeFile(join(directory, pem.name), pem.text, pem.mode, flags.force);
    }
  } catch (error) {
    deps.stderr.write(`error: cannot write to ${directory}: ${(error as Error).message}\n`);
    return 1;
  }
  deps.stdout.write(summary(directory, flags));
  return 0;
}

function checkFlags(flags: CertsDevFlags): string | undefined {
  if (flags.hosts.length === 0) return '--hosts lists no host';
  for (const name of flags.clients) {
    if (!CLIENT_NAME.test(name))
      return `--client ${JSON.stringify(name)}: use letters, digits, '.', '_' and '-'`;
    if (RESERVED.has(name)) return `--client ${name}: the name is taken by the ${name} certificate`;
  }
  if (new Set(flags.clients).size !== flags.clients.length) return '--client lists a name twice';
  return undefined;
}

function pair(name: string, issued: IssuedCertificate): PemFile[] {
  return [
    { name: `${name}.pem`, text: issued.certPem, mode: PUBLIC },
    { name: `${name}-key.pem`, text: issued.keyPem, mode: PRIVATE },
  ];
}

/** What was written and how to use it. Paths are absolute so the lines work from any directory. */
function summary(directory: string, flags: CertsDevFlags): string {
  const path = (name: string) => join(directory, name);
  const bootstrap = `${flags.hosts[0]}:9092`;
  const kcatTls = `-X security.protocol=ssl -X ssl.ca.location=${quote(path('ca.pem'))}`;
  const lines = [
    `Wrote a development CA and certificates to ${directory}:`,
    fileLine('ca', 'the CA (ca-key.pem can issue certificates: keep it private)'),
    fileLine('server', `the broker, for ${flags.hosts.join(', ')}`),
    ...flags.clients.map((name) => fileLine(name, `client ${name} (principal User:CN=${name})`)),
    '',
    'Broker configuration (YAML); clientAuth: required refuses clients without a certificate:',
    'listeners:',
    '  client:',
    '    securityProtocol: SSL',
    '    tls:',
    `      certFile: ${path('server.pem')}`,
    `      keyFile: ${path('server-key.pem')}`,
    `      caFile: ${path('ca.pem')}`,
    `      clientAuth: ${flags.clients.length > 0 ? 'requested' : 'none'}`,
    '',
    'Try it:',
    `  kcat -b ${bootstrap} ${kcatTls} -L`,
  ];
  const client = flags.clients[0];
  if (client !== undefined) {
    lines.push(
      `  kcat -b ${bootstrap} ${kcatTls} -X ssl.certificate.location=${quote(path(`${client}.pem`))} -X ssl.key.location=${quote(path(`${client}-key.pem`))} -L`,
    );
  }
  return `${lines.join('\n')}\n`;
}

function fileLine(name: string, what: string): string {
  // Padded to line up, with a space always left, so a long client name never runs into its text.
  return `  ${`${name}.pem, ${name}-key.pem`.padEnd(29)} ${what}`;
}

/** Single-quotes a path for a POSIX shell when it needs it. */
function quote(text: string): string {
  return /^[A-Za-z0-9_./:=-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}
