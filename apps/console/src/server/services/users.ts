import { randomBytes } from 'node:crypto';
import { TRPCError } from '@trpc/server';
import type { InternalAdmin } from '@weir/protocol';
import type { UserSetPasswordInput, UserSetPasswordResult } from '../api/schemas/users';

/** The user calls the gateway makes (internal listener APIs). */
export type UserAdmin = Pick<InternalAdmin, 'listUsers' | 'upsertUser' | 'deleteUser'>;

/** A generated password: 24 random bytes, URL-safe. */
export function generatePassword(): string {
  return randomBytes(24).toString('base64url');
}

/**
 * Gives a user a new password: the typed one, or a generated one answered once. Every credential
 * the user has (SCRAM-SHA-256 and/or -512) gets it, each keeping its mechanism and iterations, so
 * the old password stops working on every mechanism. Unknown users are NOT_FOUND: changing a
 * password never creates a user.
 */
export async function setUserPassword(
  users: UserAdmin,
  input: UserSetPasswordInput,
  now: () => number,
): Promise<UserSetPasswordResult> {
  const user = (await users.listUsers()).find((candidate) => candidate.name === input.username);
  if (user === undefined || user.credentials.length === 0) {
    throw new TRPCError({ code: 'NOT_FOUND', message: `User "${input.username}" does not exist.` });
  }
  const password = input.password ?? generatePassword();
  for (const credential of user.credentials) {
    await users.upsertUser({
      username: user.name,
      mechanism: credential.mechanism,
      password,
      iterations: credential.iterations,
    });
  }
  return {
    asOfMs: now(),
    username: user.name,
    mechanisms: user.credentials.map((credential) => credential.mechanism),
    generatedPassword: input.password === undefined ? password : null,
  };
}
