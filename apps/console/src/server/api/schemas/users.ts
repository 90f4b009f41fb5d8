import { SCRAM_MECHANISMS } from '@weir/protocol/names';
import { z } from 'zod';
import { asOfMsSchema } from './common';

/** SASL/SCRAM users of the broker, as the gateway carries them. */

export const scramMechanismSchema = z.enum(SCRAM_MECHANISMS);
export const usernameSchema = z
  .string()
  .trim()
  .min(1, 'Enter a username.')
  .max(255)
  .regex(/^[^\s,=:]+$/, 'a username has no spaces, commas, colons or "="');

/** Shorter passwords are too easy to guess; the broker itself accepts any. */
export const MIN_PASSWORD_LENGTH = 8;
export const typedPasswordSchema = z
  .string()
  .min(MIN_PASSWORD_LENGTH, `A password has at least ${MIN_PASSWORD_LENGTH} characters.`)
  .max(1024, 'A password has at most 1024 characters.');

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

export const userSetPasswordInputSchema = z.object({
  username: usernameSchema,
  /** The new password; when absent the gateway generates one and answers it once. */
  password: typedPasswordSchema.optional(),
});
export const userSetPasswordResultSchema = z.object({
  asOfMs: asOfMsSchema,
  username: z.string(),
  /** Every mechanism the user had, each now with the new password (and its old iterations). */
  mechanisms: z.array(scramMechanismSchema),
  /** The generated password, shown once; null when the caller typed it. */
  generatedPassword: z.string().nullable(),
});

export type UserSetPasswordInput = z.infer<typeof userSetPasswordInputSchema>;
export type UserSetPasswordResult = z.infer<typeof userSetPasswordResultSchema>;
