import type { AclOperation } from '@weir/protocol';
import { z } from 'zod';
import { asOfMsSchema } from './common';

/** ACLs (the broker's authorization rules), as the gateway carries them. */

export const aclResourceTypeSchema = z.enum(['TOPIC', 'GROUP', 'CLUSTER', 'TRANSACTIONAL_ID']);
export const aclPatternTypeSchema = z.enum(['LITERAL', 'PREFIXED']);
/**
 * The browser's forms import these schemas, and the SDK's one entry point brings sockets and native
 * codecs, so the names are written here (a type-only import costs the bundle nothing) and checked
 * against the SDK's `AclOperation` in both directions: a name added to or removed from the SDK
 * fails the type check here.
 */
const ACL_OPERATION_NAMES = [
  'ALL',
  'READ',
  'WRITE',
  'CREATE',
  'DELETE',
  'ALTER',
  'DESCRIBE',
  'CLUSTER_ACTION',
  'DESCRIBE_CONFIGS',
  'ALTER_CONFIGS',
  'IDEMPOTENT_WRITE',
] as const satisfies readonly AclOperation[];
type MissingOperations = Exclude<AclOperation, (typeof ACL_OPERATION_NAMES)[number]>;
const everyOperationListed: [MissingOperations] extends [never] ? true : MissingOperations = true;
void everyOperationListed;
export const aclOperationSchema = z.enum(ACL_OPERATION_NAMES);

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
  permission: z.enum(['ALLOW', 'DENY']),
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
