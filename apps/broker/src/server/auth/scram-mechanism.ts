import {
  constantTimeEqual,
  parseScramAttributes,
  type ScramMechanism,
  scramHash,
  scramHmac,
  unescapeSaslName,
  xorBuffers,
} from '@weir/protocol';
import type { CredentialLookup } from '../../security/users/user-store';
import type { SaslMechanism, SaslServerExchange, SaslStepResult } from './sasl-mechanism';

/** Finds a user's credential (or a decoy) for a mechanism. */
export interface ScramCredentials {
  lookup(username: string, mechanism: ScramMechanism): CredentialLookup;
}

/** Where one exchange is; each step accepts exactly one client message. */
type ScramServerStep = 'awaiting-client-first' | 'awaiting-client-final' | 'done';

/** What the first round leaves for the second. */
interface FirstRound {
  readonly username: string;
  readonly gs2Header: string;
  readonly nonce: string;
  readonly clientFirstBare: string;
  readonly serverFirst: string;
  readonly lookup: CredentialLookup;
}

/**
 * SCRAM-SHA-256/512 (RFC 5802, RFC 7677), broker side, over two SaslAuthenticate rounds (or two
 * raw tokens after SaslHandshake v0). Round one: client-first `gs2-header n=user,r=cnonce` gets
 * server-first `r=cnonce+snonce,s=salt,i=iterations`. Round two: client-final `c=…,r=…,p=proof`
 * is checked (channel binding echo, nonce, then the proof against StoredKey in constant time) and
 * answered with server-final `v=ServerSignature`. Kafka's extensions (`tokenauth=…`) are ignored:
 * there are no delegation tokens. Unknown users go through the same rounds with a decoy.
 */
export function scramMechanism(
  mechanism: ScramMechanism,
  credentials: ScramCredentials,
  /** The server's half of each exchange's nonce: random in use, fixed by test vectors. */
  serverNonce: () => string,
): SaslMechanism {
  const refused: SaslStepResult = {
    kind: 'rejected',
    errorMessage: `Authentication failed during authentication due to invalid credentials with SASL mechanism ${mechanism}`,
  };
  const malformed = (what: string): SaslStepResult => ({
    kind: 'rejected',
    errorMessage: `Invalid ${mechanism} ${what} message`,
  });

  function clientFirst(message: string): SaslStepResult | FirstRound {
    // gs2-header = cbind-flag "," [authzid] "," ; only "n" (no channel binding) and "y" (client
    // supports it, thinks the server does not) are acceptable without TLS channel binding.
    const match = /^([ny]),(a=[^,]*)?,(.*)$/s.exec(message);
    if (match === null) return malformed('client-first');
    const clientFirstBare = match[3]!;
    const attributes = parseScramAttributes(clientFirstBare);
    const escapedName = attributes?.get('n');
    const clientNonce = attributes?.get('r');
    const keys = attributes === undefined ? [] : [...attributes.keys()];
    if (escapedName === undefined || clientNonce === undefined || keys[0] !== 'n' || keys[1] !== 'r') {
      return malformed('client-first');
    }
    // RFC 5802 §5.1: a mandatory extension ("m") the server does not know fails the exchange.
    if (attributes!.has('m') || clientNonce.length === 0) return malformed('client-first');
    const username = unescapeSaslName(escapedName);
    if (username === undefined || username.length === 0) return malformed('client-first');
    const authzid = match[2] === undefined ? undefined : unescapeSaslName(match[2].slice(2));
    if (authzid !== undefined && authzid !== '' && authzid !== username) return refused;
    const lookup = credentials.lookup(username, mechanism);
    const nonce = clientNonce + serverNonce();
    const serverFirst = `r=${nonce},s=${lookup.credential.salt.toString('base64')},i=${lookup.credential.iterations}`;
    return {
      username,
      gs2Header: message.slice(0, message.length - clientFirstBare.length),
      nonce,
      clientFirstBare,
      serverFirst,
      lookup,
    };
  }

  function clientFinal(message: string, first: FirstRound): SaslStepResult {
    const proofAt = message.lastIndexOf(',p=');
    if (proofAt < 0) return malformed('client-final');
    const withoutProof = message.slice(0, proofAt);
    const attributes = parseScramAttributes(withoutProof);
    const keys = attributes === undefined ? [] : [...attributes.keys()];
    if (keys[0] !== 'c' || keys[1] !== 'r') return malformed('client-final');
    const channelBinding = Buffer.from(attributes!.get('c')!, 'base64');
    if (!channelBinding.equals(Buffer.from(first.gs2Header, 'utf8'))) return refused;
    // librdkafka 2.0 sends its own nonce again in front of the server's (client + client + server);
    // Kafka accepts any nonce that ends with the one it sent, and so does Weir. The server part is
    // still there, so the proof still covers this exchange's fresh nonce.
    if (!attributes!.get('r')!.endsWith(first.nonce)) return refused;
    const { credential, known } = first.lookup;
    const proof = Buffer.from(message.slice(proofAt + 3), 'base64');
    if (proof.length !== credential.storedKey.length) return refused;
    const authMessage = `${first.clientFirstBare},${first.serverFirst},${withoutProof}`;
    const clientSignature = scramHmac(mechanism, credential.storedKey, authMessage);
    const clientKey = xorBuffers(proof, clientSignature);
    // Both conditions are evaluated, so a decoy costs the same as a real comparison.
    const matches = constantTimeEqual(scramHash(mechanism, clientKey), credential.storedKey);
    if (!(matches && known)) return refused;
    const serverSignature = scramHmac(mechanism, credential.serverKey, authMessage);
    return {
      kind: 'authenticated',
      principal: `User:${first.username}`,
      finalBytes: Buffer.from(`v=${serverSignature.toString('base64')}`, 'utf8'),
    };
  }

  return {
    name: mechanism,
    claimedUsername: (firstMessage) => {
      const name = /^[ny],(?:a=[^,]*)?,n=([^,]*),/s.exec(firstMessage.toString('utf8'))?.[1];
      return name === undefined ? undefined : unescapeSaslName(name) || undefined;
    },
    start(): SaslServerExchange {
      let step: ScramServerStep = 'awaiting-client-first';
      let first: FirstRound | undefined;
      return {
        async step(authBytes: Buffer): Promise<SaslStepResult> {
          const message = authBytes.toString('utf8');
          switch (step) {
            case 'awaiting-client-first': {
              const result = clientFirst(message);
              if ('kind' in result) {
                step = 'done';
                return result;
              }
              first = result;
              step = 'awaiting-client-final';
              return { kind: 'challenge', challenge: Buffer.from(result.serverFirst, 'utf8') };
            }
            case 'awaiting-client-final':
              step = 'done';
              return clientFinal(message, first!);
            case 'done':
              return malformed('extra');
          }
        },
      };
    },
  };
}
