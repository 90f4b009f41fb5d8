import { ErrorCode, WeirError } from '@weir/protocol';

/*
 * JSON paths for record filters (`value.user.id = 42` in the console). A path is a chain of member
 * names and array indices: `user.id`, `items[0].sku`, `["a.b"].c` (a bracketed, double-quoted name
 * may hold any character, with JSON string escapes). The syntax is the common subset of what
 * operators type into jq and JSONPath, without wildcards: a filter asks about one place in a
 * record, so a match is always explainable by that one value.
 */

/** One step of a path: a member name or an array index. */
export type JsonPathStep =
  | { readonly kind: 'member'; readonly name: string }
  | { readonly kind: 'index'; readonly index: number };

/** A path longer than this is not something a person typed; deeper JSON is still searchable up to it. */
export const MAX_JSON_PATH_CHARS = 512;
const MAX_JSON_PATH_STEPS = 64;
const BARE_NAME = /^[^.[\]"\s]+/;
const INDEX = /^\[(\d{1,9})\]/;

function invalidPath(path: string, reason: string): WeirError {
  return new WeirError(ErrorCode.INVALID_REQUEST, { detail: `filter path "${path}": ${reason}` });
}

/** Parses a path; bad syntax is INVALID_REQUEST naming the path and what is wrong with it. */
export function parseJsonPath(path: string): JsonPathStep[] {
  if (path.length === 0) throw invalidPath(path, 'is empty');
  if (path.length > MAX_JSON_PATH_CHARS)
    throw invalidPath(path.slice(0, 40), `is longer than ${MAX_JSON_PATH_CHARS} characters`);
  const steps: JsonPathStep[] = [];
  let rest = path;
  let expectSeparator = false;
  while (rest.length > 0) {
    if (steps.length >= MAX_JSON_PATH_STEPS)
      throw invalidPath(path, `has more than ${MAX_JSON_PATH_STEPS} steps`);
    const index = INDEX.exec(rest);
    if (index !== null) {
      steps.push({ kind: 'index', index: Number(index[1]) });
      rest = rest.slice(index[0].length);
      expectSeparator = true;
      continue;
    }
    if (rest.startsWith('["')) {
      const end = quotedNameEnd(rest);
      if (end < 0) throw invalidPath(path, 'a bracketed name is not closed with "]');
      steps.push({ kind: 'member', name: parseQuotedName(path, rest.slice(1, end + 1)) });
      rest = rest.slice(end + 2);
      expectSeparator = true;
      continue;
    }
    if (expectSeparator) {
      if (!rest.startsWith('.')) throw invalidPath(path, `expected "." or "[" before "${rest.slice(0, 20)}"`);
      rest = rest.slice(1);
    }
    const name = BARE_NAME.exec(rest);
    if (name === null) throw invalidPath(path, `expected a member name at "${rest.slice(0, 20)}"`);
    steps.push({ kind: 'member', name: name[0] });
    rest = rest.slice(name[0].length);
    expectSeparator = true;
  }
  return steps;
}

/** The index of the closing quote of `["…"]` (the one followed by `]`), or -1. */
function quotedNameEnd(text: string): number {
  for (let at = 2; at < text.length; at++) {
    if (text[at] === '\\') at++;
    else if (text[at] === '"') return text[at + 1] === ']' ? at : -1;
  }
  return -1;
}

function parseQuotedName(path: string, quoted: string): string {
  try {
    return JSON.parse(quoted) as string;
  } catch {
    throw invalidPath(path, `${quoted} is not a valid JSON string`);
  }
}

/** The value at the path, or undefined when the document has nothing there. */
export function valueAtPath(document: unknown, steps: readonly JsonPathStep[]): unknown {
  let node = document;
  for (const step of steps) {
    if (step.kind === 'index') {
      if (!Array.isArray(node) || step.index >= node.length) return undefined;
      node = node[step.index];
    } else {
      if (node === null || typeof node !== 'object' || Array.isArray(node)) return undefined;
      if (!Object.hasOwn(node, step.name)) return undefined;
      node = (node as Record<string, unknown>)[step.name];
    }
  }
  return node;
}

/**
 * How a filter's operand compares to the value found. `equals` holds when the value equals the
 * operand read as JSON (`42`, `true`, `null`, `"x"`, an object in the same key order), or when the
 * value is a string equal to the operand's text: operators type `id = 42` for both 42 and "42",
 * and `status = paid` without quotes. `contains` looks for the operand's text in the value's text (a
 * string as it is, anything else as compact JSON).
 */
export interface JsonOperand {
  readonly text: string;
  /** The operand as compact JSON, when it parses as JSON. */
  readonly json: string | undefined;
}

export function jsonOperand(text: string): JsonOperand {
  try {
    return { text, json: JSON.stringify(JSON.parse(text)) };
  } catch {
    return { text, json: undefined };
  }
}

export function jsonEquals(found: unknown, operand: JsonOperand): boolean {
  if (found === undefined) return false;
  if (typeof found === 'string' && found === operand.text) return true;
  return operand.json !== undefined && JSON.stringify(found) === operand.json;
}

export function jsonContains(found: unknown, operand: JsonOperand): boolean {
  if (found === undefined) return false;
  const text = typeof found === 'string' ? found : JSON.stringify(found);
  return text.includes(operand.text);
}
