import { randomBytes } from 'node:crypto';
import { type AclBinding, type Admin, type InternalAdmin, MATCH_ALL_ACLS } from '@weir/protocol';
import type { AclBindingView, AclListInput } from '../api/schemas/security';

/** The ACLs the caller may describe (the broker needs DESCRIBE on the cluster), filtered here. */
export async function listAcls(
  admin: Pick<Admin, 'describeAcls'>,
  input: AclListInput,
  now: () => number,
): Promise<{ asOfMs: number; acls: AclBindingView[] }> {
  const all = await admin.describeAcls({
    ...MATCH_ALL_ACLS,
    ...(input.principal === undefined ? {} : { principal: input.principal }),
    ...(input.resourceType === undefined ? {} : { resourceType: input.resourceType }),
  });
  const needle = input.resource?.toLowerCase() ?? '';
  const acls = all
    .filter((acl) => needle === '' || acl.resourceName.toLowerCase().includes(needle))
    .map((acl) => ({ ...acl }) as AclBindingView)
    .sort(
      (a, b) =>
        a.principal.localeCompare(b.principal) ||
        a.resourceType.localeCompare(b.resourceType) ||
        a.resourceName.localeCompare(b.resourceName) ||
        a.operation.localeCompare(b.operation),
    );
  return { asOfMs: now(), acls };
}

export async function createAcl(admin: Pick<Admin, 'createAcls'>, binding: AclBindingView): Promise<void> {
  await admin.createAcls([binding as AclBinding]);
}

/** Deletes exactly this ACL; answers how many were deleted (0 or 1). */
export async function deleteAcl(admin: Pick<Admin, 'deleteAcls'>, binding: AclBindingView): Promise<number> {
  const [deleted] = await admin.deleteAcls([binding as AclBinding]);
  return deleted?.length ?? 0;
}

/** A generated password: 24 random bytes, URL-safe. */
export function generatePassword(): string {
  return randomBytes(24).toString('base64url');
}

export type UserAdmin = Pick<InternalAdmin, 'listUsers' | 'upsertUser' | 'deleteUser'>;
