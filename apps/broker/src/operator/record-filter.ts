import { type DecodedRecord, ErrorCode, WeirError } from '@weir/protocol';

/** A filter as it arrives: names as strings, the operand as the UTF-8 bytes the caller sent. */
export interface RecordFilterSpec {
  field: string;
  operator: string;
  value: Buffer;
}

/** One compiled condition; true when the record satisfies it. */
export type RecordPredicate = (record: DecodedRecord) => boolean;

const FIELDS = new Set(['key', 'value', 'headerKey', 'headerValue']);
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
  const predicates = filters.map(compileFilter);
  if (predicates.length === 1) return predicates[0];
  return (record) => {
    for (const predicate of predicates) if (!predicate(record)) return false;
    return true;
  };
}

function compileFilter(filter: RecordFilterSpec): RecordPredicate {
  if (!FIELDS.has(filter.field)) {
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
