import { PERMISSION_REASONS } from '@weir/protocol/names';
import { z } from 'zod';
import {
  aclBindingSchema,
  aclOperationSchema,
  aclPatternTypeSchema,
  aclResourceTypeSchema,
  principalSchema,
} from './acls';
import { asOfMsSchema } from './common';

/** What one principal may do, as the broker's authorizer decides it (see EffectivePermissions). */

export const effectivePermissionsInputSchema = z.object({
  /** `User:<name>`. */
  principal: principalSchema,
  /** The client address to assume; `*` (the default) means only ACLs for every host apply. */
  host: z.string().trim().min(1, 'Enter a host, or * for any host.').max(255).default('*'),
});

export const permissionReasonSchema = z.enum(PERMISSION_REASONS);

export const operationVerdictSchema = z.object({
  operation: aclOperationSchema,
  allowed: z.boolean(),
  reason: permissionReasonSchema,
  /** The DENY ACLs for DENY_ACL, the allowing ACLs for ALLOW_ACL, empty otherwise. */
  acls: z.array(aclBindingSchema),
});

export const resourcePermissionsSchema = z.object({
  resourceType: aclResourceTypeSchema,
  /** The name; for a PREFIXED entry the prefix an ACL names. */
  resourceName: z.string(),
  patternType: aclPatternTypeSchema,
  /** Whether the broker has the resource now (false for names only an ACL mentions). */
  exists: z.boolean(),
  operations: z.array(operationVerdictSchema),
});

export const effectivePermissionsSchema = z.object({
  asOfMs: asOfMsSchema,
  principal: z.string(),
  host: z.string(),
  superUser: z.boolean(),
  allowEveryoneIfNoAclFound: z.boolean(),
  /** The cluster first, then topics, groups and transactional ids, each sorted by name. */
  resources: z.array(resourcePermissionsSchema),
});

export type EffectivePermissionsInput = z.output<typeof effectivePermissionsInputSchema>;
export type EffectivePermissionsView = z.infer<typeof effectivePermissionsSchema>;
export type ResourcePermissionsView = z.infer<typeof resourcePermissionsSchema>;
export type OperationVerdictView = z.infer<typeof operationVerdictSchema>;
export type PermissionReasonView = z.infer<typeof permissionReasonSchema>;
