import { NextRequest } from 'next/server';
import { describe, expect, it } from 'vitest';
import { parseEnv } from '../src/env';
import { proxy } from '../src/proxy';
import { AllowedHosts, hostnameOf } from '../src/server/security/allowed-hosts';

/*
 * The console's proxy (src/proxy.ts), which Next.js runs before every request: the Host check
 * against DNS rebinding and the security headers (issue #15). The same over real HTTP with the
 * production build is in e2e/cross-site.spec.ts.
 */

function request(path: string, host: string): NextRequest {
  return new NextRequest(`http://${host}${path}`, { headers: { host } });
}

const STATIC_HEADERS = {
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
};

describe('Host header', () => {
  it('refuses a page, the API and assets under a name that is not the console’s, naming the setting', async () => {
    for (const path of [
      '/',
      '/topics',
      '/api/v1/topics',
      '/api/trpc/topics.list',
      '/api/session',
      '/_next/static/x.js',
    ]) {
      const response = proxy(request(path, 'evil.example:3000'));
      expect(response.status, path).toBe(421);
      const body = (await response.json()) as { message: string };
      expect(body.message).toContain('WEIR_CONSOLE_ALLOWED_HOSTS');
      expect(body.message).toContain('evil.example:3000');
      expect(response.headers.get('x-frame-options')).toBe('DENY');
    }
  });

  it('answers loopback names and this machine’s addresses', () => {
    for (const host of [
      '127.0.0.1:3000',
      'localhost:3000',
      'localhost',
      '[::1]:3000',
      'console.localhost:3000',
    ]) {
      expect(proxy(request('/topics', host)).status, host).toBe(200);
    }
  });

  it('allows what WEIR_CONSOLE_ALLOWED_HOSTS and the listen host name, and nothing near them', () => {
    const { allowedHosts } = parseEnv({
      WEIR_CONSOLE_ALLOWED_HOSTS: 'Console.Example.com, 10.1.2.3,[fd00::1]',
      __NEXT_PRIVATE_ORIGIN: 'http://weir-box.lan:3000',
    });
    expect(allowedHosts).toEqual(['console.example.com', '10.1.2.3', '[fd00::1]', 'weir-box.lan']);
    const hosts = new AllowedHosts(allowedHosts, () => []);
    for (const host of [
      'console.example.com',
      'CONSOLE.example.com:443',
      '10.1.2.3:3000',
      '[fd00::1]:3000',
      'weir-box.lan:3000',
    ]) {
      expect(hosts.allows(host), host).toBe(true);
    }
    for (const host of [
      'evil.console.example.com',
      'console.example.com.evil',
      '10.1.2.4',
      'localhost.evil',
      '',
      'a b',
    ]) {
      expect(hosts.allows(host), host).toBe(false);
    }
    expect(hosts.allows(null)).toBe(false);
    expect(() => parseEnv({ WEIR_CONSOLE_ALLOWED_HOSTS: 'console.example.com:3000' })).toThrow(
      /WEIR_CONSOLE_ALLOWED_HOSTS/,
    );
  });

  it('reads the machine’s addresses again for an address it does not know yet', () => {
    let addresses = ['192.0.2.1'];
    const hosts = new AllowedHosts([], () => addresses);
    expect(hosts.allows('192.0.2.7:3000')).toBe(false);
    addresses = ['192.0.2.1', '192.0.2.7'];
    expect(hosts.allows('192.0.2.7:3000')).toBe(true);
    expect(hostnameOf('[FE80::1]:80')).toBe('[fe80::1]');
  });
});

describe('security headers', () => {
  it('gives a page a policy with a fresh script nonce that Next.js gets too, and no framing', () => {
    const first = proxy(request('/topics', '127.0.0.1:3000'));
    const csp = first.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("frame-ancestors 'none'");
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    // NextResponse.next({ request }) passes the request's new headers on under this prefix.
    expect(first.headers.get('x-middleware-request-x-nonce')).toBe(nonce);
    expect(first.headers.get('x-middleware-request-content-security-policy')).toBe(csp);
    expect(csp).not.toContain('unsafe-eval');
    for (const [name, value] of Object.entries(STATIC_HEADERS)) expect(first.headers.get(name)).toBe(value);
    const second = proxy(request('/topics', '127.0.0.1:3000'));
    expect(second.headers.get('content-security-policy')).not.toBe(csp);
  });

  it('gives API answers and assets a policy that runs nothing and frames nothing', () => {
    for (const path of [
      '/api/v1/topics',
      '/api/trpc/topics.list',
      '/api/health',
      '/_next/static/chunks/a.js',
      '/icon.svg',
    ]) {
      const response = proxy(request(path, 'localhost:3000'));
      expect(response.headers.get('content-security-policy'), path).toBe(
        "default-src 'none'; frame-ancestors 'none'",
      );
      for (const [name, value] of Object.entries(STATIC_HEADERS))
        expect(response.headers.get(name), path).toBe(value);
    }
  });
});
