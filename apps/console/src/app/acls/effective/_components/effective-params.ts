import type { AclResourceType } from '@weir/protocol/names';
import {
  createLoader,
  type inferParserType,
  parseAsBoolean,
  parseAsString,
  parseAsStringLiteral,
} from 'nuqs/server';
import type { EffectivePermissionsInput } from '../../../../server/api/schemas/effective-permissions';

/** The resource types in the order the view lists them: the cluster first, as the broker answers. */
export const resourceTypes = [
  'CLUSTER',
  'TOPIC',
  'GROUP',
  'TRANSACTIONAL_ID',
] as const satisfies readonly AclResourceType[];

/**
 * The view's URL state, read the same way by the page (a server component, which prefetches) and
 * by the view (a client component): whose permissions, from which host, and the filters.
 */
export const effectivePermissionsParams = {
  principal: parseAsString.withDefault(''),
  host: parseAsString.withDefault('*'),
  type: parseAsStringLiteral(resourceTypes),
  q: parseAsString.withDefault(''),
  allowed: parseAsBoolean.withDefault(false),
};

export type EffectivePermissionsParams = inferParserType<typeof effectivePermissionsParams>;

export const loadEffectivePermissionsParams = createLoader(effectivePermissionsParams);

/**
 * The `acls.effective` input, or null while no principal is chosen. `fallbackPrincipal` (the
 * logged-in user's) applies when the URL names none, so people first see their own rights.
 */
export function effectivePermissionsInput(
  params: Pick<EffectivePermissionsParams, 'principal' | 'host'>,
  fallbackPrincipal: string | null,
): EffectivePermissionsInput | null {
  const principal = params.principal.trim() || fallbackPrincipal;
  if (!principal) return null;
  return { principal, host: params.host.trim() || '*' };
}
