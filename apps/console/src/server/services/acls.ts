import { type AclBinding, type Admin, MATCH_ALL_ACLS } from '@weir/protocol';
import type {
  AclIntent,
  AclIntentApplyResult,
  AclIntentBinding,
  AclIntentPreview,
} from '../api/schemas/acl-intents';
import type { AclBindingView, AclListInput } from '../api/schemas/acls';
import { aclBindingKey, expandAclIntent } from './acl-intents';
import { type LockoutSources, previewLockout } from './permissions/acl-lockout-preview';

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

/**
 * The ACLs an intent expands to, each marked with whether the broker has exactly it already, and
 * the ACLs of the cluster they were compared with.
 */
async function intentBindings(
  admin: Pick<Admin, 'describeAcls'>,
  intent: AclIntent,
): Promise<{ bindings: AclIntentBinding[]; existing: AclBinding[] }> {
  const existing = await admin.describeAcls(MATCH_ALL_ACLS);
  const present = new Set(existing.map((acl) => aclBindingKey(acl as AclBindingView)));
  const bindings = expandAclIntent(intent).map((binding) => ({
    ...binding,
    exists: present.has(aclBindingKey(binding)),
  }));
  return { bindings, existing };
}

/**
 * The preview of an intent: its ACLs, marked as above, and who loses access once the missing ones
 * exist (permissions/acl-lockout-preview.ts), which the wizard makes the person confirm.
 */
export async function previewAclIntent(
  admin: Pick<Admin, 'describeAcls'>,
  lockoutSources: LockoutSources,
  intent: AclIntent,
  now: () => number,
): Promise<AclIntentPreview> {
  const { bindings, existing } = await intentBindings(admin, intent);
  const missing = bindings.filter((binding) => !binding.exists).map(({ exists: _exists, ...acl }) => acl);
  const lockout = await previewLockout(lockoutSources, existing, missing, intent.principal);
  return { asOfMs: now(), bindings, lockout };
}

/**
 * Creates the ACLs of an intent the broker does not have yet, in one CreateAcls call. An ACL
 * someone adds between the describe and the create is harmless: creating an existing ACL changes
 * nothing in Kafka's model.
 */
export async function applyAclIntent(
  admin: Pick<Admin, 'describeAcls' | 'createAcls'>,
  intent: AclIntent,
  now: () => number,
): Promise<AclIntentApplyResult> {
  const { bindings } = await intentBindings(admin, intent);
  const missing = bindings.filter((binding) => !binding.exists);
  if (missing.length > 0) {
    await admin.createAcls(missing.map(({ exists: _exists, ...binding }) => binding as AclBinding));
  }
  return {
    asOfMs: now(),
    created: missing.length,
    alreadyPresent: bindings.length - missing.length,
    bindings,
  };
}
