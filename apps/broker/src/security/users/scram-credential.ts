import { constantTimeEqual, type ScramMechanism, scramKeys, scramSaltedPassword } from '@weir/protocol';
import type { ScramCredentialRecord } from '../../metadata/metadata-store';

/** PBKDF2 iterations of a new credential when the caller does not choose (Kafka's default is 4096). */
export const DEFAULT_SCRAM_ITERATIONS = 8192;
/** The most iterations accepted, as Kafka (16384): beyond, each login costs the broker too much CPU. */
export const MAX_SCRAM_ITERATIONS = 16_384;
const SALT_BYTES = 32;

/** A stored credential with its byte strings decoded, as the SCRAM exchange uses it. */
export interface ScramCredential {
  readonly salt: Buffer;
  readonly iterations: number;
  readonly storedKey: Buffer;
  readonly serverKey: Buffer;
}

/** The stored credential for a password: a fresh random salt, then StoredKey and ServerKey. */
export async function credentialForPassword(
  mechanism: ScramMechanism,
  password: string,
  iterations: number,
  randomBytes: (size: number) => Buffer,
): Promise<ScramCredentialRecord> {
  const salt = randomBytes(SALT_BYTES);
  const saltedPassword = await scramSaltedPassword(mechanism, password, salt, iterations);
  return credentialForSaltedPassword(mechanism, salt, saltedPassword, iterations);
}

/**
 * The stored credential from a salted password computed elsewhere (Kafka's
 * AlterUserScramCredentials sends this, so the password itself never travels).
 */
export function credentialForSaltedPassword(
  mechanism: ScramMechanism,
  salt: Buffer,
  saltedPassword: Buffer,
  iterations: number,
): ScramCredentialRecord {
  const keys = scramKeys(mechanism, saltedPassword);
  return {
    salt: salt.toString('base64'),
    iterations,
    storedKey: keys.storedKey.toString('base64'),
    serverKey: keys.serverKey.toString('base64'),
  };
}

export function decodeCredential(record: ScramCredentialRecord): ScramCredential {
  return {
    salt: Buffer.from(record.salt, 'base64'),
    iterations: record.iterations,
    storedKey: Buffer.from(record.storedKey, 'base64'),
    serverKey: Buffer.from(record.serverKey, 'base64'),
  };
}

/**
 * Whether `password` derives to the stored key (PLAIN and console logins check passwords this
 * way, so no password is ever stored). The comparison takes the same time wherever keys differ.
 */
export async function passwordMatches(
  mechanism: ScramMechanism,
  credential: ScramCredential,
  password: string,
): Promise<boolean> {
  const saltedPassword = await scramSaltedPassword(
    mechanism,
    password,
    credential.salt,
    credential.iterations,
  );
  return constantTimeEqual(scramKeys(mechanism, saltedPassword).storedKey, credential.storedKey);
}
