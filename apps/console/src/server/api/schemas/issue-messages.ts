import { z } from 'zod';

/*
 * The words of the console's input errors, where a schema gives none of its own. zod's defaults
 * ("Too small: expected number to be >=1", "Invalid input: expected number, received string") are
 * a programmer's; forms show these next to the field and REST answers them in `issues`, each with
 * the field's name, so they say only what the value must be. A message a schema sets itself (a
 * topic name's characters, Base64) wins over these, as zod ranks its error maps; codes not handled
 * here keep zod's words.
 *
 * Installed with zod's global configuration when the shared schemas load (common.ts imports this
 * module), so the browser's checks and the gateway's say the same.
 */

type Issue = z.core.$ZodRawIssue;

function counted(count: number | bigint, one: string, many: string): string {
  return `${count} ${Number(count) === 1 ? one : many}`;
}

function tooSmall(issue: Issue & { code: 'too_small' }): string | undefined {
  const { minimum, inclusive, origin } = issue;
  if (origin === 'number' || origin === 'int' || origin === 'bigint') {
    return inclusive ? `must be at least ${minimum}` : `must be more than ${minimum}`;
  }
  if (origin === 'string') {
    return Number(minimum) === 1
      ? 'must not be empty'
      : `must be at least ${counted(minimum, 'character', 'characters')}`;
  }
  if (origin === 'array' || origin === 'set') return `needs at least ${counted(minimum, 'entry', 'entries')}`;
  return undefined;
}

function tooBig(issue: Issue & { code: 'too_big' }): string | undefined {
  const { maximum, inclusive, origin } = issue;
  if (origin === 'number' || origin === 'int' || origin === 'bigint') {
    return inclusive ? `must be at most ${maximum}` : `must be less than ${maximum}`;
  }
  if (origin === 'string') return `must be at most ${counted(maximum, 'character', 'characters')}`;
  if (origin === 'array' || origin === 'set') return `takes at most ${counted(maximum, 'entry', 'entries')}`;
  return undefined;
}

/** What a value is, in the words of the expected types. */
function kindOf(input: unknown): string {
  if (input === null) return 'null';
  if (Array.isArray(input)) return 'a list';
  if (typeof input === 'string') return 'text';
  if (typeof input === 'number') return Number.isNaN(input) ? 'not a number' : 'a number';
  if (typeof input === 'boolean') return 'true or false';
  if (typeof input === 'object') return 'an object';
  return typeof input;
}

const EXPECTED: Readonly<Record<string, string>> = {
  number: 'a number',
  int: 'a whole number',
  bigint: 'a whole number',
  string: 'text',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
};

function invalidType(issue: Issue & { code: 'invalid_type' }): string | undefined {
  if (issue.input === undefined) return 'is required';
  const expected = EXPECTED[issue.expected];
  return expected === undefined ? undefined : `must be ${expected}, not ${kindOf(issue.input)}`;
}

/** The message for an issue a schema has no words of its own for; undefined keeps zod's. */
export function inputIssueMessage(issue: Issue): string | undefined {
  switch (issue.code) {
    case 'too_small':
      return tooSmall(issue);
    case 'too_big':
      return tooBig(issue);
    case 'invalid_type':
      return invalidType(issue);
    default:
      return undefined;
  }
}

z.config({ customError: inputIssueMessage });
