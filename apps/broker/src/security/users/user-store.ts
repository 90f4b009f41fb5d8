import { createHmac } from 'node:crypto';
import { SCRAM_MECHANISMS, type ScramMechanism } from '@weir/protocol';
import type { MetadataStore } from '../../metadata/metadata-store';
import {
  DEFAULT_SCRAM_ITERATIONS,
  decodeCredential,
  passwordMatches,
  type ScramCredential,
} from './scram-credential';

/** The part of the metadata store that holds users. */
export type UserRecords = Pick<MetadataStore, 'listUsers' | 'getUser' | 'putUserCredential' | 'deleteUser'>;

/** A user's credential for one mechanism, or a decoy that no password matches. */
export interface CredentialLookup {
  readonly credential: ScramCredential;
  /** False for a decoy: the exchange runs to its end and then fails, like a wrong password. */
  readonly known: boolean;
}

/**
 * Reads users for authentication. An unknown user (or one without the mechanism) gets a decoy
 * credential whose salt is derived from the name with a per-process secret, so the same name
 * always gets the same salt and iterations: SCRAM's first answer then looks the same whether or
 * not the user exists, and probing names tells an attacker nothing.
 */
export class UserStore {
  readonly #decoySecret: Buffer;

  constructor(
    private readonly records: UserRecords,
    randomBytes: (size: number) => Buffer,
  ) {
    this.#decoySecret = randomBytes(32);
  }

  lookup(username: string, mechanism: ScramMechanism): CredentialLookup {
    const record = this.records.getUser(username)?.credentials[mechanism];
    if (record !== undefined) return { credential: decodeCredential(record), known: true };
    return { credential: this.#decoy(username, mechanism), known: false };
  }

  /**
   * Whether the password is the user's, derived against its first SCRAM credential (PLAIN and the
   * console login). An unknown user costs the same derivation, then fails.
   */
  async verifyPassword(username: string, password: string): Promise<boolean> {
    const user = this.records.getUser(username);
    const mechanism = SCRAM_MECHANISMS.find((candidate) => user?.credentials[candidate] !== undefined);
    if (mechanism === undefined) {
      await passwordMatches('SCRAM-SHA-256', this.#decoy(username, 'SCRAM-SHA-256'), password);
      return false;
    }
    return passwordMatches(mechanism, decodeCredential(user!.credentials[mechanism]!), password);
  }

  #decoy(username: string, mechanism: ScramMechanism): ScramCredential {
    const derive = (label: string) =>
      createHmac('sha256', this.#decoySecret).update(`${label}\0${mechanism}\0${username}`).digest();
    const stored =
      mechanism === 'SCRAM-SHA-512' ? Buffer.concat([derive('stored'), derive('stored2')]) : derive('stored');
    return {
      salt: derive('salt'),
      iterations: DEFAULT_SCRAM_ITERATIONS,
      storedKey: stored,
      serverKey: stored,
    };
  }
}
