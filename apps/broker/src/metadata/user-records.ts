import { ErrorCode, WeirError } from '@weir/protocol';
import type { UserRecord } from './metadata-store';

/**
 * A user after removing the credentials of `mechanisms` (all when undefined): undefined when none
 * is left, so the user goes. Both stores apply this one rule; RESOURCE_NOT_FOUND names the unknown
 * user or mechanism.
 */
export function userWithoutMechanisms(
  name: string,
  user: UserRecord | undefined,
  mechanisms: readonly string[] | undefined,
): UserRecord | undefined {
  const missing =
    user === undefined ? [] : (mechanisms ?? []).filter((m) => !Object.hasOwn(user.credentials, m));
  if (user === undefined || missing.length > 0) {
    throw new WeirError(ErrorCode.RESOURCE_NOT_FOUND, {
      detail:
        user === undefined
          ? `user "${name}" does not exist`
          : `user "${name}" has no ${missing.join(', ')} credential`,
    });
  }
  const credentials = { ...user.credentials };
  for (const mechanism of mechanisms ?? Object.keys(credentials)) delete credentials[mechanism];
  return Object.keys(credentials).length === 0 ? undefined : { name, credentials };
}
