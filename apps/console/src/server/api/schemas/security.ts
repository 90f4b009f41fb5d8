import { z } from 'zod';
import { asOfMsSchema } from './common';

/** ACLs and SASL users (the broker's security), as the gateway carries them. */

export const aclResourceTypeSchema = z.enum(['TOPIC', 'GROUP', 'CLUSTER', 'TRANSACTIONAL_ID']);
export const aclOperationSchema = z.enum([
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
]);

export const aclBindingSchema = z.object({
  resourceType: aclResourceTypeSchema,
  resourceName: z.string().min(1).max(255),
  patternType: z.enum(['LITERAL', 'PREFIXED']),
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

export const scramMechanismSchema = z.enum(['SCRAM-SHA-256', 'SCRAM-SHA-512']);
export const usernameSchema = z
  .string()
  .trim()
  .min(1, 'Enter a username.')
  .max(255)
  .regex(/^[^\s,=:]+$/, 'a username has no spaces, commas, colons or "="');

export const userListSchema = z.object({
  asOfMs: asOfMsSchema,
  users: z.array(
    z.object({
      name: z.string(),
      credentials: z.array(z.object({ mechanism: scramMechanismSchema, iterations: z.number().int() })),
    }),
  ),
});
export const userCreateInputSchema = z.object({
  username: usernameSchema,
  mechanism: scramMechanismSchema.default('SCRAM-SHA-256'),
});
export const userCreateResultSchema = z.object({
  asOfMs: asOfMsSchema,
  username: z.string(),
  mechanism: scramMechanismSchema,
  /** Generated; shown once, never stored by the console. */
  password: z.string(),
});
export const userRefInputSchema = z.object({ username: usernameSchema });
export const userDeleteResultSchema = z.object({
  asOfMs: asOfMsSchema,
  username: z.string(),
  deleted: z.literal(true),
});

export type AclListInput = z.infer<typeof aclListInputSchema>;
export type AclBindingView = z.infer<typeof aclBindingSchema>;
