import type { ScramMechanism } from '../auth/scram-mechanisms';

/** The SCRAM mechanisms a user's credential can be for: every one Kafka defines. */
export type UserScramMechanism = ScramMechanism;

/** A SASL user as listed: its mechanisms with their PBKDF2 iterations, never salts or keys. */
export interface UserDescription {
  readonly name: string;
  readonly credentials: readonly { mechanism: UserScramMechanism; iterations: number }[];
  /**
   * A digest of the user's stored credentials that changes whenever one is replaced or removed
   * (empty from a broker older than WeirListUsers v1).
   */
  readonly credentialFingerprint: string;
}

export interface UpsertUserRequest {
  readonly username: string;
  readonly mechanism: UserScramMechanism;
  readonly password: string;
  /** PBKDF2 iterations, 4096–16384; the broker's default (8192) when omitted. */
  readonly iterations?: number;
}

/** The outcome of a credential check: the principal when the password is right. */
export type CredentialCheck =
  | {
      readonly ok: true;
      readonly principal: string;
      /** The user's {@link UserDescription.credentialFingerprint} (null from an older broker). */
      readonly credentialFingerprint: string | null;
    }
  | { readonly ok: false };

/** Managing SASL users over the internal listener (Weir keys 32006–32009). */
export interface UserAdminApi {
  /** Every user (or those of `usernames` that exist), sorted by name. */
  listUsers(usernames?: readonly string[]): Promise<UserDescription[]>;
  /**
   * Creates the user or replaces its credential for one mechanism. The salted password is derived
   * here, so the password itself never goes over the wire.
   */
  upsertUser(request: UpsertUserRequest): Promise<void>;
  /** Removes the user, or only its credential for `mechanism`; RESOURCE_NOT_FOUND when unknown. */
  deleteUser(username: string, mechanism?: UserScramMechanism): Promise<void>;
  /**
   * Checks a password (the console's login). A wrong one resolves `{ ok: false }` after the
   * broker's growing delay, counted per `remoteAddress` (the end user's) or else per username.
   */
  verifyCredentials(username: string, password: string, remoteAddress?: string): Promise<CredentialCheck>;
}
