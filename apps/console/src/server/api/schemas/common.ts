import { z } from 'zod';
// Installs the console's words for input errors before any schema is used.
import './issue-messages';

/*
 * Building blocks shared by every domain's schemas. Offsets, sizes and lags are int64 on the wire;
 * they leave the gateway as decimal strings so that JSON (REST has no transformer) keeps them exact.
 */

/** A non-negative int64 as a decimal string. */
export const decimalSchema = z
  .string()
  .regex(/^\d{1,19}$/, 'expected a non-negative integer as a decimal string')
  .meta({ description: 'A non-negative 64-bit integer as a decimal string.', example: '42' });

/** A signed int64 as a decimal string (offsets that may be -1, shifts). */
export const signedDecimalSchema = z
  .string()
  .regex(/^-?\d{1,19}$/, 'expected an integer as a decimal string')
  .meta({ description: 'A signed 64-bit integer as a decimal string.', example: '-1' });

/** When the broker state in an answer was read, in ms since the epoch. */
export const asOfMsSchema = z
  .number()
  .int()
  .meta({ description: 'When the broker state in this answer was read (ms since the epoch).' });

export const topicNameSchema = z
  .string()
  .min(1)
  .max(249)
  .regex(/^[a-zA-Z0-9._-]+$/, 'a topic name uses only letters, digits, ".", "_" and "-"');

export const groupIdSchema = z.string().min(1).max(255);

export const partitionSchema = z.number().int().min(0).max(1_000_000);

/**
 * Whether an action on a resource is allowed now; the reason says why not, for the UI's hint, and
 * `deniedBy` what denies it: `acl` when the principal's ACLs never allow it (the UI leaves the
 * control out), `state` when the resource's state forbids it for now (the UI shows it disabled).
 */
export const actionPermissionSchema = z.object({
  allowed: z.boolean(),
  reason: z.string().nullable(),
  deniedBy: z.enum(['acl', 'state']).nullable().meta({
    description:
      "Null when allowed; `acl` when the principal's ACLs do not allow the action, `state` when the resource's state forbids it now.",
  }),
});

/** Paging of server-side lists. */
export const pageOffsetSchema = z.number().int().min(0).max(1_000_000).default(0);
export const pageLimitSchema = z.number().int().min(1).max(1000).default(50);

/** An empty input: procedures without parameters still take an object, which REST and tRPC share. */
export const emptyInputSchema = z.object({});

export type Decimal = z.infer<typeof decimalSchema>;
export type ActionPermissionView = z.infer<typeof actionPermissionSchema>;
