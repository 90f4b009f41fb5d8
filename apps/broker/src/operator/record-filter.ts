import { type DecodedRecord, ErrorCode, WeirError } from '@weir/protocol';
import { jsonContains, jsonEquals, jsonOperand, parseJsonPath, valueAtPath } from './json-path';

/**
 * A filter as it arrives: names as strings, the operand as the UTF-8 bytes the caller sent, and for
 * the JSON fields (`keyJson`, `valueJson`) the path into the key or value (null for the others).
 */
export interface RecordFilterSpec {
  field: string;
  operator: string;
  value: Buffer;
  path?: string | null;
}

/** One compiled condition; true when the record satisfies it. */
export type RecordPredicate = (record: DecodedRecord) => boolean;

const BYTE_FIELDS = new Set(['key', 'value', 'headerKey', 'headerValue']);
const JSON_FIELDS = new Set(['keyJson', 'valueJson']);
const OPERATORS = new Set(['contains', 'notContains', 'equals']);
/** More would only be a slower way to match nothing; a console offers a handful. */
export const MAX_FILTERS = 16;
/** A filter operand longer than this is certainly not something a person typed to search for. */
export const MAX_FILTER_VALUE_BYTES = 64 * 1024;

/**
 * Compiles a scan's filters into one predicate (the filters are ANDed). Keys, values and header
 * values are compared as bytes where they lie (`Buffer.indexOf`, `Buffer.equals`), so examining a
 * record that does not match copies and decodes nothing. Header keys are already strings in a
 * decoded record, so they are compared as strings. A header condition holds when any header
 * satisfies it; `notContains` holds when no header contains the operand. A missing (null) key or
 * value contains nothing and equals nothing.
 */
export function compileFilters(filters: readonly RecordFilterSpec[]): RecordPredicate | undefined {
  if (filters.length > MAX_FILTERS) {
    throw new WeirError(ErrorCode.INVALID_REQUEST, {
      detail: `${filters.length} filters; at most ${MAX_FILTERS}`,
    });
  }
  if (filters.length === 0) return undefined;
  const documents = new JsonDocuments();
  const predicates = filters.map((filter) => compileFilter(filter, documents));
  if (predicates.length === 1) return predicates[0];
  return (record) => {
    for (const predicate of predicates) if (!predicate(record)) return false;
    return true;
  };
}

function compileFilter(filter: RecordFilterSpec, documents: JsonDocuments): RecordPredicate {
  if (!BYTE_FIELDS.has(filter.field) && !JSON_FIELDS.has(filter.field)) {
    throw new WeirError(ErrorCode.INVALID_REQUEST, { detail: `filter field "${filter.field}" is unknown` });
  }
  if (!OPERATORS.has(filter.operator)) {
    throw new WeirError(ErrorCode.INVALID_REQUEST, {
      detail: `filter operator "${filter.operator}" is unknown`,
    });
  }
  if (filter.value.length > MAX_FILTER_VALUE_BYTES) {
    throw new WeirError(ErrorCode.INVALID_REQUEST, {
      detail: `a filter value of ${filter.value.length} bytes exceeds ${MAX_FILTER_VALUE_BYTES}`,
    });
  }
  const path = filter.path ?? null;
  if (JSON_FIELDS.has(filter.field)) {
    if (path === null) {
      throw new WeirError(ErrorCode.INVALID_REQUEST, {
        detail: `filter field "${filter.field}" needs a path`,
      });
    }
    return jsonPredicate(
      filter.field === 'keyJson' ? 'key' : 'value',
      filter.operator,
      path,
      filter.value,
      documents,
    );
  }
  if (path !== null) {
    throw new WeirError(ErrorCode.INVALID_REQUEST, {
      detail: `filter field "${filter.field}" takes no path (the JSON fields are keyJson and valueJson)`,
    });
  }
  // Copied: the operand must not be a view into the request frame, which is reused after decode.
  const operand = Buffer.from(filter.value);
  const bytesTest = bytesPredicate(filter.operator, operand);
  switch (filter.field) {
    case 'key':
      return (record) => bytesTest(record.key);
    case 'value':
      return (record) => bytesTest(record.value);
    case 'headerValue':
      return anyHeader(filter.operator, (header) => bytesTest(header.value));
    default: {
      const text = operand.toString('utf8');
      const textTest =
        filter.operator === 'equals'
          ? (key: string) => key === text
          : filter.operator === 'contains'
            ? (key: string) => key.includes(text)
            : (key: string) => !key.includes(text);
      return anyHeader(filter.operator, (header) => textTest(header.key));
    }
  }
}

/** For `notContains` the per-header test is "contains", and the condition is that none passes. */
function bytesPredicate(operator: string, operand: Buffer): (bytes: Buffer | null) => boolean {
  switch (operator) {
    case 'equals':
      return (bytes) => bytes?.equals(operand) === true;
    case 'contains':
      return (bytes) => bytes !== null && bytes.indexOf(operand) !== -1;
    default:
      return (bytes) => bytes === null || bytes.indexOf(operand) === -1;
  }
}

function anyHeader(
  operator: string,
  test: (header: DecodedRecord['headers'][number]) => boolean,
): RecordPredicate {
  if (operator === 'notContains') {
    // `test` is the per-header "does not contain", so "no header contains" is "every header passes".
    return (record) => record.headers.every(test);
  }
  return (record) => record.headers.some(test);
}

/**
 * A condition on the JSON value at a path of the key or value. A key or value that is not a JSON
 * object or array has nothing at any path: it equals and contains nothing, so `notContains` holds.
 */
function jsonPredicate(
  part: 'key' | 'value',
  operator: string,
  path: string,
  operandBytes: Buffer,
  documents: JsonDocuments,
): RecordPredicate {
  const steps = parseJsonPath(path);
  const operand = jsonOperand(operandBytes.toString('utf8'));
  const found = (record: DecodedRecord) => valueAtPath(documents.of(record, part), steps);
  switch (operator) {
    case 'equals':
      return (record) => jsonEquals(found(record), operand);
    case 'contains':
      return (record) => jsonContains(found(record), operand);
    default:
      return (record) => !jsonContains(found(record), operand);
  }
}

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;

/**
 * Parses a record's key or value as JSON at most once however many JSON filters ask about it: the
 * filters of one scan run one after another on the same record, so remembering the last record is
 * enough. Bytes whose first non-blank byte opens no object or array are not parsed at all, since
 * a path always names a member or an element.
 */
class JsonDocuments {
  #record: DecodedRecord | undefined;
  #documents: Record<'key' | 'value', unknown> = { key: NOT_PARSED, value: NOT_PARSED };

  of(record: DecodedRecord, part: 'key' | 'value'): unknown {
    if (record !== this.#record) {
      this.#record = record;
      this.#documents.key = NOT_PARSED;
      this.#documents.value = NOT_PARSED;
    }
    if (this.#documents[part] === NOT_PARSED) this.#documents[part] = parseDocument(record[part]);
    return this.#documents[part];
  }
}

/** Marks a part not parsed yet; `undefined` already means "parsed, and not JSON". */
const NOT_PARSED = Symbol('not parsed');

const utf8 = new TextDecoder();

function parseDocument(bytes: Uint8Array | null): unknown {
  if (bytes === null) return undefined;
  let first = 0;
  while (
    first < bytes.length &&
    (bytes[first] === 0x20 || bytes[first] === 0x0a || bytes[first] === 0x0d || bytes[first] === 0x09)
  )
    first++;
  if (bytes[first] !== OPEN_BRACE && bytes[first] !== OPEN_BRACKET) return undefined;
  try {
    return JSON.parse(utf8.decode(bytes));
  } catch {
    return undefined;
  }
}
