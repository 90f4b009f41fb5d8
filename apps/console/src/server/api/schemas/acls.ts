import { ACL_OPERATIONS, ACL_PATTERN_TYPES, ACL_PERMISSIONS, ACL_RESOURCE_TYPES } from '@weir/protocol/names';
import { z } from 'zod';
import { asOfMsSchema } from './common';

/** ACLs (the broker's authorization rules), as the gateway carries them. */

/*
 * The browser's forms import these schemas, so the names come from the protocol's browser-safe
 * entry (`@weir/protocol/names`), not from its root, which brings sockets and native codecs.
 */
export const aclResourceTypeSchema = z.enum(ACL_RESOURCE_TYPES);
export const aclPatternTypeSchema = z.enum(ACL_PATTERN_TYPES);
export const aclOperationSchema = z.enum(ACL_OPERATIONS);

/** `User:<name>`, or `User:*` for everyone. */
export const principalSchema = z
  .string()
  .trim()
  .regex(/^User:.+$/, 'a principal is User:<name> (User:* for everyone)');

export const aclBindingSchema = z.object({
  resourceType: aclResourceTypeSchema,
  resourceName: z.string().min(1).max(255),
  patternType: aclPatternTypeSchema,
  principal: z.string().regex(/^User:.+$/, 'a principal is User:<name> (User:* for everyone)'),
  host: z.string().min(1).max(255),
  operation: aclOperationSchema,
  permission: z.enum(ACL_PERMISSIONS),
});

export const aclListInputSchema = z.object({
  principal: z.string().min(1).optional(),
  resourceType: aclResourceTypeSchema.optional(),
  /** Case-insensitive substring of the resource name. */
  resource: z.string().optional(),
});

export const aclListSchema = z.object({ asOfMs: asOfMsSchema, acls: z.array(aclBindingSchema) });
export const aclCreateResultSchema = z.object({ asOfMs: asOfMsSchema, created: z.literal(true) });
export const aclDeleteResultSchema = z.object({ asOfMs: asOfMsSchema, deleted: z.number().int() });

export type AclListInput = z.infer<typeof aclListInputSchema>;
export type AclBindingView = z.infer<typeof aclBindingSchema>;
export type AclResourceTypeView = z.infer<typeof aclResourceTypeSchema>;
export type AclOperationView = z.infer<typeof aclOperationSchema>;
