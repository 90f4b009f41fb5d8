import type { z } from 'zod';
import type { scramMechanismSchema } from '../../../server/api/schemas/users';

export type ScramMechanism = z.infer<typeof scramMechanismSchema>;

export const MECHANISM_OPTIONS: readonly { value: ScramMechanism; label: string }[] = [
  { value: 'SCRAM-SHA-256', label: 'SCRAM-SHA-256' },
  { value: 'SCRAM-SHA-512', label: 'SCRAM-SHA-512' },
];
