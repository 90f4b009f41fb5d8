import { X509Certificate } from 'node:crypto';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCertificateAuthority, issueClientCertificate } from '../src/cli/certs-generate';
import { certificatePrincipal } from '../src/server/tls/certificate-principal';
import { cleanEnv, weir } from './cli-runner';
import { temporaryDirectory } from './log-fixtures';

describe('weir certs dev', () => {
  let scratch: Awaited<ReturnType<typeof temporaryDirectory>>;

  beforeAll(async () => {
    scratch = await temporaryDirectory('weir-certs-');
  });
  afterAll(async () => {
    await scratch?.cleanup();
  });

  const pem = (name: string) => readFile(join(scratch.path, 'certs', name), 'utf8');
  const mode = async (name: string) => (await stat(join(scratch.path, 'certs', name))).mode & 0o777;

  it('writes a CA, a server certificate for the hosts and client certificates, keys 0600', async () => {
    const out = join(scratch.path, 'certs');
    const result = await weir(
      ['certs', 'dev', '--out', out, '--hosts', '127.0.0.1,broker.local', '--client', 'alice,bob'],
      {
        env: cleanEnv(),
      },
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    for (const name of ['ca', 'server', 'alice', 'bob']) {
      expect(await mode(`${name}-key.pem`)).toBe(0o600);
      expect(await mode(`${name}.pem`)).toBe(0o644);
    }
    const ca = new X509Certificate(await pem('ca.pem'));
    const server = new X509Certificate(await pem('server.pem'));
    const bob = new X509Certificate(await pem('bob.pem'));
    expect(ca.ca).toBe(true);
    expect(server.verify(ca.publicKey)).toBe(true);
    expect(server.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(server.checkHost('broker.local')).toBe('broker.local');
    expect(server.ca).toBe(false);
    expect(bob.verify(ca.publicKey)).toBe(true);
    expect(bob.subject).toBe('CN=bob');
    expect(certificatePrincipal(bob, 'dn')).toBe('User:CN=bob');
    // What to do next: the configuration and a kcat command with absolute paths.
    expect(result.stdout).toContain('securityProtocol: SSL');
    expect(result.stdout).toContain(`certFile: ${join(out, 'server.pem')}`);
    expect(result.stdout).toContain(`-X security.protocol=ssl -X ssl.ca.location=${join(out, 'ca.pem')}`);
    expect(result.stdout).toContain(`ssl.key.location=${join(out, 'alice-key.pem')}`);
    expect(result.stdout).not.toContain('PRIVATE KEY');
  });

  it('refuses to replace existing files unless --force, and keeps keys 0600 when it does', async () => {
    const out = join(scratch.path, 'certs');
    const before = await pem('ca.pem');
    const refused = await weir(['certs', 'dev', '--out', out], { env: cleanEnv() });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('pass --force');
    expect(await pem('ca.pem')).toBe(before);
    await writeFile(join(out, 'ca-key.pem'), 'old', { mode: 0o644 });
    const forced = await weir(['certs', 'dev', '--out', out, '--force'], { env: cleanEnv() });
    expect(forced.code).toBe(0);
    expect(await pem('ca.pem')).not.toBe(before);
    expect(await mode('ca-key.pem')).toBe(0o600);
  });

  it('refuses client names that are not plain file names', async () => {
    const result = await weir(['certs', 'dev', '--out', join(scratch.path, 'other'), '--client', '../evil'], {
      env: cleanEnv(),
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--client');
  });
});

describe('certificate principals', () => {
  const ca = createCertificateAuthority();

  it('writes the subject DN as Kafka does: RFC 2253, most specific first', () => {
    const issued = issueClientCertificate(ca, {
      commonName: 'alice',
      organizationalUnit: 'eng',
      organization: 'Acme',
    });
    const certificate = new X509Certificate(issued.certPem);
    expect(certificatePrincipal(certificate, 'dn')).toBe('User:CN=alice,OU=eng,O=Acme');
    expect(certificatePrincipal(certificate, 'cn')).toBe('User:alice');
  });

  it('escapes the characters RFC 2253 requires in the DN, and none in the CN form', () => {
    const issued = issueClientCertificate(ca, { commonName: 'smith, jr+1', organization: 'A=B' });
    const certificate = new X509Certificate(issued.certPem);
    expect(certificatePrincipal(certificate, 'dn')).toBe('User:CN=smith\\, jr\\+1,O=A=B');
    expect(certificatePrincipal(certificate, 'cn')).toBe('User:smith, jr+1');
  });
});
