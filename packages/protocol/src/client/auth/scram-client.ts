import { ErrorCode } from '../../errors/error-codes';
import { WeirError } from '../../errors/weir-error';
import type { SaslClientExchange } from './sasl-client-exchange';
import {
  constantTimeEqual,
  escapeSaslName,
  parseScramAttributes,
  SCRAM_MIN_ITERATIONS,
  scramHmac,
  scramKeys,
  scramSaltedPassword,
  xorBuffers,
} from './scram';
import type { ScramMechanism } from './scram-mechanisms';

/** No channel binding and no authorization identity: the GS2 header every Kafka client sends. */
const GS2_HEADER = 'n,,';

/** Where the client is in its two rounds; each step accepts exactly one broker reply. */
type ScramClientStep = 'awaiting-server-first' | 'awaiting-server-final' | 'done';

/**
 * SCRAM-SHA-256/512 (RFC 5802, RFC 7677), client side: client-first `n,,n=user,r=cnonce`; on the
 * server-first message (nonce, salt, iterations) it derives the proof and sends client-final; on
 * server-final it checks the broker's signature, so a broker that does not know the credential
 * cannot pretend to. It refuses a server nonce that does not extend its own and fewer than 4096
 * iterations (a downgrade a man in the middle could try). The password never leaves the client.
 */
export function scramClientExchange(
  mechanism: ScramMechanism,
  username: string,
  password: string,
  /** Printable, without commas; random in use ({@link scramNonce}), fixed by test vectors. */
  clientNonce: string,
): SaslClientExchange {
  const clientFirstBare = `n=${escapeSaslName(username)},r=${clientNonce}`;
  let step: ScramClientStep = 'awaiting-server-first';
  let expectedServerSignature: Buffer | undefined;

  const refuse = (detail: string): never => {
    step = 'done';
    throw new WeirError(ErrorCode.SASL_AUTHENTICATION_FAILED, { detail: `${mechanism}: ${detail}` });
  };

  async function clientFinal(serverFirst: string): Promise<Buffer> {
    const attributes = parseScramAttributes(serverFirst);
    const nonce = attributes?.get('r');
    const salt = attributes?.get('s');
    const iterations = Number(attributes?.get('i'));
    if (nonce === undefined || salt === undefined || !Number.isInteger(iterations)) {
      return refuse('the broker sent a malformed server-first message.');
    }
    if (!nonce.startsWith(clientNonce) || nonce.length === clientNonce.length) {
      return refuse("the broker's nonce does not extend the client's.");
    }
    if (iterations < SCRAM_MIN_ITERATIONS) {
      return refuse(`the broker asked for ${iterations} iterations, fewer than ${SCRAM_MIN_ITERATIONS}.`);
    }
    const saltedPassword = await scramSaltedPassword(
      mechanism,
      password,
      Buffer.from(salt, 'base64'),
      iterations,
    );
    const keys = scramKeys(mechanism, saltedPassword);
    const withoutProof = `c=${Buffer.from(GS2_HEADER).toString('base64')},r=${nonce}`;
    const authMessage = `${clientFirstBare},${serverFirst},${withoutProof}`;
    const clientSignature = scramHmac(mechanism, keys.storedKey, authMessage);
    const proof = xorBuffers(keys.clientKey, clientSignature);
    expectedServerSignature = scramHmac(mechanism, keys.serverKey, authMessage);
    step = 'awaiting-server-final';
    return Buffer.from(`${withoutProof},p=${proof.toString('base64')}`, 'utf8');
  }

  function checkServerFinal(serverFinal: string): undefined {
    step = 'done';
    const attributes = parseScramAttributes(serverFinal);
    const error = attributes?.get('e');
    if (error !== undefined) return refuse(`the broker refused: ${error}.`);
    const signature = attributes?.get('v');
    if (
      signature === undefined ||
      expectedServerSignature === undefined ||
      !constantTimeEqual(Buffer.from(signature, 'base64'), expectedServerSignature)
    ) {
      return refuse("the broker's signature does not prove it knows the credential.");
    }
    return undefined;
  }

  return {
    mechanism,
    initialBytes: () => Buffer.from(`${GS2_HEADER}${clientFirstBare}`, 'utf8'),
    async next(serverBytes) {
      const message = serverBytes.toString('utf8');
      switch (step) {
        case 'awaiting-server-first':
          return clientFinal(message);
        case 'awaiting-server-final':
          return checkServerFinal(message);
        case 'done':
          return refuse('the broker sent more after the exchange ended.');
      }
    },
  };
}
