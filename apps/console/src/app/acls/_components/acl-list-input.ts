import type { AclListInput } from '../../../server/api/schemas/acls';

/**
 * The `acls.list` input for the URL's filters (`principal`, `resource`); the page's server-side
 * prefetch and the client list use the same one, so they share the query key.
 */
export function aclListInput(params: { principal?: string | null; resource?: string | null }): AclListInput {
  return {
    ...(params.principal ? { principal: params.principal } : {}),
    ...(params.resource ? { resource: params.resource } : {}),
  };
}
