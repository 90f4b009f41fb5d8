import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import forge from 'node-forge';

/**
 * X.509 generation for `weir certs dev`. node:crypto makes keys but cannot issue certificates, so
 * node-forge (pure JavaScript, no dependencies) builds and signs them; keys come from node:crypto,
 * which is native and fast. RSA 2048 + SHA-256 because every client we support (librdkafka's
 * OpenSSL, Node's TLS for kafkajs and our SDK) accepts it.
 */

/** A certificate and its private key, both PEM. The key is a secret: write it 0600, never log it. */
export interface IssuedCertificate {
  readonly certPem: string;
  readonly keyPem: string;
}

/** A CA that can sign further certificates. */
export interface CertificateAuthority extends IssuedCertificate {
  readonly commonName: string;
}

/** Subject fields of a client certificate; the broker's principal is built from them. */
export interface ClientSubject {
  readonly commonName: string;
  readonly organizationalUnit?: string;
  readonly organization?: string;
}

const DAY_MS = 24 * 3600 * 1000;
const CA_VALIDITY_DAYS = 3650;
const LEAF_VALIDITY_DAYS = 825;

/** A new self-signed CA. */
export function createCertificateAuthority(commonName = 'Weir development CA'): CertificateAuthority {
  const keys = newKeyPair();
  const cert = baseCertificate(keys.publicKey, CA_VALIDITY_DAYS);
  const subject = [{ shortName: 'CN', value: commonName }];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  cert.sign(keys.privateKey, forge.md.sha256.create());
  return { certPem: forge.pki.certificateToPem(cert), keyPem: keys.keyPem, commonName };
}

/** A server certificate for `hosts` (each an IP address or a DNS name, all in the SAN). */
export function issueServerCertificate(
  ca: CertificateAuthority,
  hosts: readonly string[],
): IssuedCertificate {
  if (hosts.length === 0) throw new RangeError('a server certificate needs at least one host');
  const altNames = hosts.map((host) => (isIP(host) === 0 ? { type: 2, value: host } : { type: 7, ip: host }));
  return issue(
    ca,
    [{ shortName: 'CN', value: hosts[0]! }],
    [
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
      // clientAuth too: a broker presents the same certificate to the other brokers' internal
      // listeners (cluster.interBrokerAuthentication certificate), as Kafka brokers do.
      { name: 'extKeyUsage', serverAuth: true, clientAuth: true },
      { name: 'subjectAltName', altNames },
    ],
  );
}

/** A client certificate; the broker maps its subject to `User:<DN>` (or the CN). */
export function issueClientCertificate(ca: CertificateAuthority, subject: ClientSubject): IssuedCertificate {
  // Most significant first in the certificate, so the RFC 2253 form reads CN=…,OU=…,O=….
  const attributes = [
    ...(subject.organization === undefined ? [] : [{ shortName: 'O', value: subject.organization }]),
    ...(subject.organizationalUnit === undefined
      ? []
      : [{ shortName: 'OU', value: subject.organizationalUnit }]),
    { shortName: 'CN', value: subject.commonName },
  ];
  return issue(ca, attributes, [
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', clientAuth: true },
  ]);
}

function issue(
  ca: CertificateAuthority,
  subject: forge.pki.CertificateField[],
  extensions: object[],
): IssuedCertificate {
  const caCert = forge.pki.certificateFromPem(ca.certPem);
  const caKey = forge.pki.privateKeyFromPem(ca.keyPem);
  const keys = newKeyPair();
  const cert = baseCertificate(keys.publicKey, LEAF_VALIDITY_DAYS);
  cert.setSubject(subject);
  cert.setIssuer(caCert.subject.attributes);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false, critical: true },
    ...extensions,
    { name: 'subjectKeyIdentifier' },
    { name: 'authorityKeyIdentifier', keyIdentifier: caCert.generateSubjectKeyIdentifier().getBytes() },
  ]);
  cert.sign(caKey, forge.md.sha256.create());
  return { certPem: forge.pki.certificateToPem(cert), keyPem: keys.keyPem };
}

function baseCertificate(publicKey: forge.pki.PublicKey, validityDays: number): forge.pki.Certificate {
  const cert = forge.pki.createCertificate();
  cert.publicKey = publicKey;
  cert.serialNumber = serialNumber();
  // An hour of slack, so a client whose clock is a little behind still accepts a fresh certificate.
  const now = Date.now();
  cert.validity.notBefore = new Date(now - 3600 * 1000);
  cert.validity.notAfter = new Date(now + validityDays * DAY_MS);
  return cert;
}

/** 128 random bits, positive as RFC 5280 requires (top bit clear, never zero). */
function serialNumber(): string {
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0]! & 0x7f) | 0x01;
  return bytes.toString('hex');
}

function newKeyPair(): {
  publicKey: forge.pki.PublicKey;
  privateKey: forge.pki.rsa.PrivateKey;
  keyPem: string;
} {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return {
    publicKey: forge.pki.publicKeyFromPem(publicKey),
    privateKey: forge.pki.privateKeyFromPem(privateKey),
    keyPem: privateKey,
  };
}
