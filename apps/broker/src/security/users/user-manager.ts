import { createHash } from 'node:crypto';
import {
  ErrorCode,
  isScramMechanism,
  SCRAM_MECHANISMS,
  type ScramMechanism,
  WeirError,
} from '@weir/protocol';
import type { UserRecord } from '../../metadata/metadata-store';
import type { AuthFailureThrottle } from '../../server/auth/auth-failure-throttle';
import {
  credentialForPassword,
  credentialForSaltedPassword,
  DEFAULT_SCRAM_ITERATIONS,
  decodeCredential,
  MAX_SCRAM_ITERATIONS,
  passwordMatches,
} from './scram-credential';
import type { UserRecords, UserStore } from './user-store';

/** The fewest iterations a stored credential may have (RFC 7677; kafkajs refuses fewer). */
export const MIN_SCRAM_ITERATIONS = 4096;
const MAX_USERNAME_CHARS = 255;
/** Key lengths of the salted passwords, to refuse one computed with the wrong hash. */
const SALTED_PASSWORD_BYTES: Readonly<Record<ScramMechanism, number>> = {
  'SCRAM-SHA-256': 32,
  'SCRAM-SHA-512': 64,
};

/** A user as listed: its mechanisms and their iterations, never salts or keys. */
export interface UserSummary {
  readonly name: string;
  readonly credentials: readonly { mechanism: ScramMechanism; iterations: number }[];
  /** See {@link credentialFingerprint}. */
  readonly credentialFingerprint: string;
}

/** What a right password earns: the principal, and the credentials it was checked against. */
export interface VerifiedCredentials {
  readonly principal: string;
  readonly credentialFingerprint: string | null;
}

/** Adds or replaces one mechanism's credential; exactly one of `password` and the salted pair. */
export interface UserUpsert {
  readonly username: string;
  readonly mechanism: string;
  /** Omitted: {@link DEFAULT_SCRAM_ITERATIONS}. */
  readonly iterations?: number;
  readonly password?: string;
  readonly salt?: Buffer;
  readonly saltedPassword?: Buffer;
}

export interface UserManagerDeps {
  records: UserRecords;
  users: UserStore;
  /** Slows down repeated failed credential checks, as for SASL. */
  throttle: AuthFailureThrottle;
  randomBytes: (size: number) => Buffer;
}

/**
 * Managing SASL users (Weir's internal APIs and `weir user`) and checking a password for the
 * console's login. Errors are WeirErrors with Kafka's codes for AlterUserScramCredentials:
 * UNSUPPORTED_SASL_MECHANISM, UNACCEPTABLE_CREDENTIAL, RESOURCE_NOT_FOUND. No message ever holds
 * a password, salt or key.
 */
export class UserManager {
  constructor(private readonly deps: UserManagerDeps) {}

  /** Every user, or those of `usernames` that exist, sorted by name. */
  listUsers(usernames?: readonly string[] | null): UserSummary[] {
    const records =
      usernames === undefined || usernames === null
        ? [...this.deps.records.listUsers()]
        : [...new Set(usernames)].flatMap((name) => this.deps.records.getUser(name) ?? []);
    return records
      .sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0))
      .map((user) => ({
        name: user.name,
        credentials: SCRAM_MECHANISMS.filter((mechanism) => user.credentials[mechanism] !== undefined).map(
          (mechanism) => ({ mechanism, iterations: user.credentials[mechanism]!.iterations }),
        ),
        credentialFingerprint: credentialFingerprint(user),
      }));
  }

  async upsertUser(upsert: UserUpsert): Promise<void> {
    checkUsername(upsert.username);
    const mechanism = scramMechanism(upsert.mechanism);
    const iterations = upsert.iterations ?? DEFAULT_SCRAM_ITERATIONS;
    if (
      !Number.isInteger(iterations) ||
      iterations < MIN_SCRAM_ITERATIONS ||
      iterations > MAX_SCRAM_ITERATIONS
    ) {
      throw new WeirError(ErrorCode.UNACCEPTABLE_CREDENTIAL, {
        detail: `iterations must be between ${MIN_SCRAM_ITERATIONS} and ${MAX_SCRAM_ITERATIONS}, got ${iterations}`,
      });
    }
    const salted = upsert.salt !== undefined || upsert.saltedPassword !== undefined;
    if (salted === (upsert.password !== undefined)) {
      throw new WeirError(ErrorCode.INVALID_REQUEST, {
        detail: 'give either a password or a salt with a salted password',
      });
    }
    let credential: Awaited<ReturnType<typeof credentialForPassword>>;
    if (upsert.password !== undefined) {
      if (upsert.password.length === 0) {
        throw new WeirError(ErrorCode.UNACCEPTABLE_CREDENTIAL, { detail: 'the password is empty' });
      }
      credential = await credentialForPassword(mechanism, upsert.password, iterations, this.deps.randomBytes);
    } else {
      const { salt, saltedPassword } = upsert;
      if (salt === undefined || saltedPassword === undefined || salt.length === 0) {
        throw new WeirError(ErrorCode.UNACCEPTABLE_CREDENTIAL, {
          detail: 'the salt or salted password is missing',
        });
      }
      if (saltedPassword.length !== SALTED_PASSWORD_BYTES[mechanism]) {
        throw new WeirError(ErrorCode.UNACCEPTABLE_CREDENTIAL, {
          detail: `a ${mechanism} salted password has ${SALTED_PASSWORD_BYTES[mechanism]} bytes`,
        });
      }
      credential = credentialForSaltedPassword(mechanism, salt, saltedPassword, iterations);
    }
    await this.deps.records.putUserCredential(upsert.username, mechanism, credential);
  }

  async deleteUser(username: string, mechanism?: string): Promise<void> {
    await this.deps.records.deleteUser(
      username,
      mechanism === undefined ? undefined : [scramMechanism(mechanism)],
    );
  }

  /**
   * The principal when the password is the user's; otherwise SASL_AUTHENTICATION_FAILED after the
   * same growing delay as a failed SASL exchange from `source`.
   */
  async verifyCredentials(username: string, password: string, source: string): Promise<VerifiedCredentials> {
    if (await this.deps.users.verifyPassword(username, password)) {
      const user = this.deps.records.getUser(username);
      return {
        principal: `User:${username}`,
        credentialFingerprint: user === undefined ? null : credentialFingerprint(user),
      };
    }
    await this.deps.throttle.failed(source);
    throw new WeirError(ErrorCode.SASL_AUTHENTICATION_FAILED, { detail: 'invalid username or password' });
  }

  /**
   * Makes sure the configured bootstrap admin exists with this password, for both SCRAM
   * mechanisms: credentials that already match are kept (no new salt at every start).
   */
  async ensureUser(username: string, password: string): Promise<'created' | 'updated' | 'unchanged'> {
    const existing = this.deps.records.getUser(username);
    let changed = false;
    for (const mechanism of SCRAM_MECHANISMS) {
      const record = existing?.credentials[mechanism];
      if (record !== undefined && (await passwordMatches(mechanism, decodeCredential(record), password)))
        continue;
      await this.upsertUser({ username, mechanism, password });
      changed = true;
    }
    if (!changed) return 'unchanged';
    return existing === undefined ? 'created' : 'updated';
  }
}

/**
 * A digest of a user's stored credentials (every mechanism's salt, iterations and keys): a new
 * password gets a new random salt, so any change gives a new fingerprint, and the digest reveals
 * nothing a proof could be made from. Sessions opened with one fingerprint end once it changes.
 */
export function credentialFingerprint(user: UserRecord): string {
  const hash = createHash('sha256').update(user.name);
  for (const mechanism of Object.keys(user.credentials).sort()) {
    const credential = user.credentials[mechanism]!;
    hash.update(
      `\u0000${mechanism}\u0000${credential.salt}\u0000${credential.iterations}\u0000${credential.storedKey}\u0000${credential.serverKey}`,
    );
  }
  return hash.digest('base64url').slice(0, 22);
}

function scramMechanism(name: string): ScramMechanism {
  if (isScramMechanism(name)) return name;
  throw new WeirError(ErrorCode.UNSUPPORTED_SASL_MECHANISM, {
    detail: `users have ${SCRAM_MECHANISMS.join(' or ')} credentials, not "${name}" (PLAIN checks against them)`,
  });
}

function checkUsername(username: string): void {
  // Control characters would break PLAIN's NUL separators and log lines.
  if (
    username.length === 0 ||
    username.length > MAX_USERNAME_CHARS ||
    [...username].some((char) => char.charCodeAt(0) < 0x20 || char === '\u007f')
  ) {
    throw new WeirError(ErrorCode.UNACCEPTABLE_CREDENTIAL, {
      detail: `a username has 1 to ${MAX_USERNAME_CHARS} characters and no control characters`,
    });
  }
}
