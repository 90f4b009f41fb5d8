import { createPrivateKey, type KeyObject, X509Certificate } from 'node:crypto';
import type { ListenerTlsConfig } from '../../config/listener-tls-schema';

/** The PEM contents a TLS listener serves with, read from the configured files. */
export interface TlsMaterial {
  readonly cert: string;
  readonly key: string;
  readonly ca: string | undefined;
}

/** A problem with one file setting, named relative to the `tls` object (`certFile`, …). */
export interface TlsFileProblem {
  readonly field: 'certFile' | 'keyFile' | 'caFile';
  readonly reason: string;
}

export type TlsMaterialResult =
  | { readonly ok: true; readonly material: TlsMaterial }
  | { readonly ok: false; readonly problems: TlsFileProblem[] };

export type ReadTextFile = (path: string) => Promise<string>;

/**
 * Reads and checks a listener's certificate, key and CA: each file must be readable and hold what
 * its setting says, and the key must belong to the certificate. Node's TLS would otherwise only fail
 * at the first handshake, long after the broker reported it was listening. A reason never contains
 * file contents, since the key file is a secret.
 */
export async function readTlsMaterial(
  tls: ListenerTlsConfig,
  readFile: ReadTextFile,
): Promise<TlsMaterialResult> {
  const problems: TlsFileProblem[] = [];
  const read = async (field: TlsFileProblem['field'], path: string): Promise<string | undefined> => {
    try {
      return await readFile(path);
    } catch (error) {
      problems.push({ field, reason: `cannot read ${path}: ${messageOf(error)}` });
      return undefined;
    }
  };
  const [cert, key, ca] = await Promise.all([
    read('certFile', tls.certFile),
    read('keyFile', tls.keyFile),
    tls.caFile === undefined ? undefined : read('caFile', tls.caFile),
  ]);
  const certificate =
    cert === undefined ? undefined : parse(problems, 'certFile', tls.certFile, cert, firstCertificate);
  const privateKey =
    key === undefined ? undefined : parse(problems, 'keyFile', tls.keyFile, key, privateKeyOf);
  if (ca !== undefined) parse(problems, 'caFile', tls.caFile!, ca, firstCertificate);
  if (certificate !== undefined && privateKey !== undefined && !certificate.checkPrivateKey(privateKey)) {
    problems.push({
      field: 'keyFile',
      reason: `${tls.keyFile} is not the private key of the certificate in ${tls.certFile}`,
    });
  }
  if (problems.length > 0 || cert === undefined || key === undefined) return { ok: false, problems };
  return { ok: true, material: { cert, key, ca } };
}

/** Reads the material or throws one error naming every problem (for a listener that starts). */
export async function loadTlsMaterial(
  tls: ListenerTlsConfig,
  readFile: ReadTextFile,
  keyPrefix: string,
): Promise<TlsMaterial> {
  const result = await readTlsMaterial(tls, readFile);
  if (result.ok) return result.material;
  throw new Error(
    result.problems.map((problem) => `${keyPrefix}.${problem.field}: ${problem.reason}`).join('; '),
  );
}

function parse<T>(
  problems: TlsFileProblem[],
  field: TlsFileProblem['field'],
  path: string,
  text: string,
  parser: (text: string) => T,
): T | undefined {
  try {
    return parser(text);
  } catch (error) {
    problems.push({ field, reason: `${path} does not hold a PEM ${WHAT[field]}: ${messageOf(error)}` });
    return undefined;
  }
}

const WHAT: Record<TlsFileProblem['field'], string> = {
  certFile: 'certificate',
  keyFile: 'private key (unencrypted)',
  caFile: 'CA certificate',
};

function firstCertificate(text: string): X509Certificate {
  // X509Certificate accepts DER too; a PEM setting must hold PEM, as Node's TLS expects.
  if (!text.includes('-----BEGIN CERTIFICATE-----')) throw new Error('no BEGIN CERTIFICATE block');
  return new X509Certificate(text);
}

function privateKeyOf(text: string): KeyObject {
  if (!/-----BEGIN (RSA |EC |ENCRYPTED )?PRIVATE KEY-----/.test(text))
    throw new Error('no BEGIN PRIVATE KEY block');
  // An encrypted key fails here (no passphrase is configured), which is the message we want.
  return createPrivateKey({ key: text, format: 'pem' });
}

function messageOf(error: unknown): string {
  if (error instanceof Error) {
    // OpenSSL's messages carry source paths and line numbers that mean nothing to an operator.
    const code = (error as NodeJS.ErrnoException).code;
    return code !== undefined && error.message.includes('error:') ? code : error.message;
  }
  return String(error);
}
