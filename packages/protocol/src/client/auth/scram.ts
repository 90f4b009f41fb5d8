import { createHash, createHmac, pbkdf2, timingSafeEqual } from 'node:crypto';
import type { ScramMechanism } from './scram-mechanisms';

/**
 * SCRAM (RFC 5802, RFC 7677) building blocks shared by the SDK's client side and the broker's
 * server side, so both compute keys and parse messages the same way. Only node:crypto is used.
 */

/** The fewest PBKDF2 iterations accepted on either side (RFC 7677 §4; kafkajs refuses fewer). */
export const SCRAM_MIN_ITERATIONS = 4096;

const DIGESTS: Readonly<Record<ScramMechanism, { hash: 'sha256' | 'sha512'; bytes: number }>> = {
  'SCRAM-SHA-256': { hash: 'sha256', bytes: 32 },
  'SCRAM-SHA-512': { hash: 'sha512', bytes: 64 },
};

/** The keys derived from a salted password; the server keeps storedKey and serverKey only. */
export interface ScramKeys {
  readonly clientKey: Buffer;
  readonly storedKey: Buffer;
  readonly serverKey: Buffer;
}

/**
 * Hi() of RFC 5802: PBKDF2-HMAC with the mechanism's hash. Asynchronous, because thousands of
 * iterations would otherwise hold the event loop of a broker serving other connections.
 */
export function scramSaltedPassword(
  mechanism: ScramMechanism,
  password: string,
  salt: Buffer,
  iterations: number,
): Promise<Buffer> {
  const { hash, bytes } = DIGESTS[mechanism];
  return new Promise((resolve, reject) => {
    pbkdf2(Buffer.from(password, 'utf8'), salt, iterations, bytes, hash, (error, derived) =>
      error ? reject(error) : resolve(derived),
    );
  });
}

/** ClientKey, StoredKey = H(ClientKey) and ServerKey from a salted password. */
export function scramKeys(mechanism: ScramMechanism, saltedPassword: Buffer): ScramKeys {
  const clientKey = scramHmac(mechanism, saltedPassword, 'Client Key');
  return {
    clientKey,
    storedKey: scramHash(mechanism, clientKey),
    serverKey: scramHmac(mechanism, saltedPassword, 'Server Key'),
  };
}

export function scramHmac(mechanism: ScramMechanism, key: Buffer, data: string | Buffer): Buffer {
  return createHmac(DIGESTS[mechanism].hash, key).update(data).digest();
}

export function scramHash(mechanism: ScramMechanism, data: Buffer): Buffer {
  return createHash(DIGESTS[mechanism].hash).update(data).digest();
}

/** Bytewise XOR of two buffers of the same length (ClientProof = ClientKey XOR ClientSignature). */
export function xorBuffers(left: Buffer, right: Buffer): Buffer {
  if (left.length !== right.length) throw new RangeError('SCRAM XOR of buffers of different lengths');
  const result = Buffer.allocUnsafe(left.length);
  for (let index = 0; index < left.length; index++) result[index] = left[index]! ^ right[index]!;
  return result;
}

/** A comparison whose time does not depend on where the buffers differ; false on a length mismatch. */
export function constantTimeEqual(left: Buffer, right: Buffer): boolean {
  return left.length === right.length && timingSafeEqual(left, right);
}

/** RFC 5802 §5.1 saslname: `=` and `,` are escaped in usernames. */
export function escapeSaslName(name: string): string {
  return name.replaceAll('=', '=3D').replaceAll(',', '=2C');
}

/** The inverse of {@link escapeSaslName}; undefined when a `=` starts anything but `=3D`/`=2C`. */
export function unescapeSaslName(escaped: string): string | undefined {
  if (/=(?!3D|2C)/.test(escaped)) return undefined;
  return escaped.replaceAll('=2C', ',').replaceAll('=3D', '=');
}

/**
 * The `name=value` attributes of a SCRAM message in order. Undefined when a part is not of that
 * form, or when an attribute repeats (a message is refused then rather than read ambiguously).
 * Names are one letter in RFC 5802; Kafka's extensions (`tokenauth=true`) are words, so words pass.
 */
export function parseScramAttributes(message: string): Map<string, string> | undefined {
  const attributes = new Map<string, string>();
  for (const part of message.split(',')) {
    const match = /^([a-zA-Z][a-zA-Z0-9]*)=(.*)$/s.exec(part);
    if (match === null || attributes.has(match[1]!)) return undefined;
    attributes.set(match[1]!, match[2]!);
  }
  return attributes;
}

/** A printable nonce (RFC 5802 forbids `,`): base64 of random bytes, which never contains one. */
export function scramNonce(randomBytes: (size: number) => Buffer): string {
  return randomBytes(24).toString('base64');
}
