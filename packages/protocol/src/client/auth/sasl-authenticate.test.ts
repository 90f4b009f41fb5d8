import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../errors/error-codes';
import { WeirError } from '../../errors/weir-error';
import { SaslAuthenticate } from '../../messages/apis/sasl-authenticate';
import { SaslHandshake } from '../../messages/apis/sasl-handshake';
import type { ApiSchema } from '../../schema/api';
import type { BrokerApiVersions } from '../api-versions';
import { authenticateSasl, type SaslRequest } from './sasl-authenticate';

const OPTIONS = { mechanism: 'WEIR-TOKEN', token: 'sdk-test-token-0123456789' } as const;

function versions(authenticateMax: number, handshake = { minVersion: 0, maxVersion: 1 }): BrokerApiVersions {
  return new Map([
    [SaslHandshake.apiKey, handshake],
    [SaslAuthenticate.apiKey, { minVersion: 0, maxVersion: authenticateMax }],
  ]);
}

/** A broker that answers from `answers` by API and records what was sent at which version. */
function fakeBroker(answers: { handshake?: object; authenticate?: object } = {}) {
  const sent: { api: string; version: number; body: unknown }[] = [];
  const request = (async (api: ApiSchema, version: number, body: unknown) => {
    sent.push({ api: api.name, version, body });
    if (api.apiKey === SaslHandshake.apiKey) {
      return answers.handshake ?? { errorCode: ErrorCode.NONE, mechanisms: ['WEIR-TOKEN'] };
    }
    return (
      answers.authenticate ?? {
        errorCode: ErrorCode.NONE,
        errorMessage: null,
        authBytes: Buffer.alloc(0),
        sessionLifetimeMs: 0n,
      }
    );
  }) as SaslRequest;
  return { sent, request };
}

async function failureOf(promise: Promise<unknown>): Promise<WeirError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof WeirError)) throw new Error(`expected a WeirError, got ${String(error)}`);
  return error;
}

describe('authenticateSasl', () => {
  it.each([
    [2, 2],
    [1, 1],
    [0, 0],
  ])(
    'sends SaslHandshake v1, then the token at SaslAuthenticate v%i when the broker serves up to v%i',
    async (expected, brokerMax) => {
      const broker = fakeBroker();
      await authenticateSasl(OPTIONS, versions(brokerMax), 'b:1', broker.request);
      expect(broker.sent).toEqual([
        { api: 'SaslHandshake', version: 1, body: { mechanism: 'WEIR-TOKEN' } },
        {
          api: 'SaslAuthenticate',
          version: expected,
          body: { authBytes: Buffer.from(OPTIONS.token, 'utf8') },
        },
      ]);
    },
  );

  it('fails with UNSUPPORTED_SASL_MECHANISM, sending nothing, when the broker has no SaslHandshake v1', async () => {
    for (const apiVersions of [
      new Map(),
      versions(1, { minVersion: 0, maxVersion: 0 }),
    ] as BrokerApiVersions[]) {
      const broker = fakeBroker();
      const error = await failureOf(authenticateSasl(OPTIONS, apiVersions, 'b:1', broker.request));
      expect(error.code).toBe(ErrorCode.UNSUPPORTED_SASL_MECHANISM);
      expect(error.retriable).toBe(false);
      expect(broker.sent).toEqual([]);
    }
  });

  it('reports the broker mechanisms when it refuses this one', async () => {
    const broker = fakeBroker({
      handshake: { errorCode: ErrorCode.UNSUPPORTED_SASL_MECHANISM, mechanisms: ['PLAIN', 'SCRAM-SHA-256'] },
    });
    const error = await failureOf(authenticateSasl(OPTIONS, versions(2), 'b:1', broker.request));
    expect(error.code).toBe(ErrorCode.UNSUPPORTED_SASL_MECHANISM);
    expect(error.message).toContain('PLAIN, SCRAM-SHA-256');
    expect(broker.sent).toHaveLength(1);
  });

  it('fails with the broker code, not retriable and without the token, when the token is refused', async () => {
    const broker = fakeBroker({
      authenticate: {
        errorCode: ErrorCode.SASL_AUTHENTICATION_FAILED,
        errorMessage: 'invalid credentials',
        authBytes: Buffer.alloc(0),
        sessionLifetimeMs: 0n,
      },
    });
    const error = await failureOf(authenticateSasl(OPTIONS, versions(2), 'b:1', broker.request));
    expect(error.code).toBe(ErrorCode.SASL_AUTHENTICATION_FAILED);
    expect(error.retriable).toBe(false);
    expect(error.message).toContain('invalid credentials');
    expect(error.message).not.toContain(OPTIONS.token);
  });
});
