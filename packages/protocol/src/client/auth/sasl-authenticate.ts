import { ErrorCode } from '../../errors/error-codes';
import { errorForCode, WeirError } from '../../errors/weir-error';
import { SaslAuthenticate } from '../../messages/apis/sasl-authenticate';
import { SaslHandshake } from '../../messages/apis/sasl-handshake';
import type { ApiSchema, RequestOf, ResponseOf } from '../../schema/api';
import { type BrokerApiVersions, negotiateVersion } from '../api-versions';
import { saslClientExchange } from './sasl-client-exchange';
import type { SaslOptions } from './sasl-options';

/** Sends one request at a given version on a connection that is not ready yet, and decodes its answer. */
export type SaslRequest = <A extends ApiSchema>(
  api: A,
  version: number,
  body: RequestOf<A>,
) => Promise<ResponseOf<A>>;

/** v1 says that SaslAuthenticate requests carry the exchange (v0 would mean raw SASL frames). */
const HANDSHAKE_VERSION = 1;

/**
 * Authenticates a new connection right after ApiVersions: SaslHandshake v1 names the mechanism,
 * then SaslAuthenticate (the highest version both sides speak) runs it. Throws a {@link WeirError}
 * that is not retriable: UNSUPPORTED_SASL_MECHANISM when the broker offers no SASL or not this
 * mechanism, SASL_AUTHENTICATION_FAILED (or whatever the broker answers) when it refuses the
 * credentials. The broker closes the connection after either; retrying the same credentials
 * would only be refused again.
 */
export async function authenticateSasl(
  options: SaslOptions,
  apiVersions: BrokerApiVersions,
  address: string,
  request: SaslRequest,
): Promise<void> {
  const handshake = apiVersions.get(SaslHandshake.apiKey);
  if (
    handshake === undefined ||
    handshake.minVersion > HANDSHAKE_VERSION ||
    handshake.maxVersion < HANDSHAKE_VERSION
  ) {
    throw new WeirError(ErrorCode.UNSUPPORTED_SASL_MECHANISM, {
      detail: `the broker at ${address} does not serve SaslHandshake v${HANDSHAKE_VERSION}, so it offers no SASL authentication.`,
    });
  }
  const exchange = saslClientExchange(options);
  const offered = await request(SaslHandshake, HANDSHAKE_VERSION, { mechanism: exchange.mechanism });
  if (offered.errorCode !== ErrorCode.NONE) {
    throw errorForCode(
      offered.errorCode,
      `the broker at ${address} offers [${offered.mechanisms.join(', ')}], not ${exchange.mechanism}.`,
    );
  }
  const version = negotiateVersion(SaslAuthenticate, apiVersions, address);
  let authBytes: Buffer | undefined = exchange.initialBytes();
  while (authBytes !== undefined) {
    const answer = await request(SaslAuthenticate, version, { authBytes });
    if (answer.errorCode !== ErrorCode.NONE) {
      throw errorForCode(
        answer.errorCode,
        `${exchange.mechanism} at ${address}: ${answer.errorMessage ?? 'no reason given'}.`,
      );
    }
    authBytes = await exchange.next(answer.authBytes);
  }
}
