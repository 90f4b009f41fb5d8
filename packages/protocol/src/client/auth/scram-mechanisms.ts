/**
 * The SCRAM mechanisms Kafka defines, by their SaslHandshake names. Apart from scram.ts (which
 * needs node:crypto) and importing nothing, so the browser-safe entry (src/names.ts) exports them.
 */
export const SCRAM_MECHANISMS = ['SCRAM-SHA-256', 'SCRAM-SHA-512'] as const;
export type ScramMechanism = (typeof SCRAM_MECHANISMS)[number];

export function isScramMechanism(name: string): name is ScramMechanism {
  return (SCRAM_MECHANISMS as readonly string[]).includes(name);
}
