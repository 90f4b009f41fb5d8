import { ErrorCode, WeirError } from '@weir/protocol';
import { describe, expect, it } from 'vitest';
import { jsonContains, jsonEquals, jsonOperand, parseJsonPath, valueAtPath } from './json-path';

describe('parseJsonPath', () => {
  it('reads member names, indices and bracketed names with escapes', () => {
    expect(parseJsonPath('user.id')).toEqual([
      { kind: 'member', name: 'user' },
      { kind: 'member', name: 'id' },
    ]);
    expect(parseJsonPath('items[2].sku')).toEqual([
      { kind: 'member', name: 'items' },
      { kind: 'index', index: 2 },
      { kind: 'member', name: 'sku' },
    ]);
    expect(parseJsonPath('[0]["a.b"]["say \\"hi\\"]"].x')).toEqual([
      { kind: 'index', index: 0 },
      { kind: 'member', name: 'a.b' },
      { kind: 'member', name: 'say "hi"]' },
      { kind: 'member', name: 'x' },
    ]);
  });

  it.each([
    ['', 'is empty'],
    ['user..id', 'expected a member name'],
    ['user.', 'expected a member name'],
    ['a["b', 'is not closed'],
    ['a[x]', 'expected "." or "["'],
    ['a b', 'expected "." or "["'],
    ['x'.repeat(600), 'is longer than 512'],
    [Array.from({ length: 70 }, () => 'a').join('.'), 'more than 64 steps'],
  ])('refuses %j with INVALID_REQUEST naming the path (%s)', (path, reason) => {
    let caught: unknown;
    try {
      parseJsonPath(path);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(WeirError);
    expect((caught as WeirError).code).toBe(ErrorCode.INVALID_REQUEST);
    expect((caught as WeirError).message).toContain(reason);
  });
});

describe('JSON values at a path', () => {
  const document = { user: { id: 42, name: 'ada', tags: ['a', 'b'] }, code: '42', 'a.b': null };

  it('finds members and elements, and nothing where the document has nothing', () => {
    expect(valueAtPath(document, parseJsonPath('user.tags[1]'))).toBe('b');
    expect(valueAtPath(document, parseJsonPath('["a.b"]'))).toBeNull();
    expect(valueAtPath(document, parseJsonPath('user.tags[5]'))).toBeUndefined();
    expect(valueAtPath(document, parseJsonPath('user.id.x'))).toBeUndefined();
    expect(valueAtPath(document, parseJsonPath('user[0]'))).toBeUndefined();
    // Inherited members are not the document's: a path never reaches into Object.prototype.
    expect(valueAtPath(document, parseJsonPath('user.constructor'))).toBeUndefined();
  });

  it('equals the operand as JSON, or a string equal to its text', () => {
    expect(jsonEquals(42, jsonOperand('42'))).toBe(true);
    expect(jsonEquals(42, jsonOperand('42.0'))).toBe(true);
    expect(jsonEquals('42', jsonOperand('42'))).toBe(true);
    expect(jsonEquals('paid', jsonOperand('paid'))).toBe(true);
    expect(jsonEquals('paid', jsonOperand('"paid"'))).toBe(true);
    expect(jsonEquals(null, jsonOperand('null'))).toBe(true);
    expect(jsonEquals(true, jsonOperand('true'))).toBe(true);
    expect(jsonEquals(['a', 'b'], jsonOperand('["a", "b"]'))).toBe(true);
    expect(jsonEquals(43, jsonOperand('42'))).toBe(false);
    expect(jsonEquals(undefined, jsonOperand('null'))).toBe(false);
    expect(jsonEquals('4', jsonOperand('42'))).toBe(false);
  });

  it('contains looks in the text of strings and in the compact JSON of the rest', () => {
    expect(jsonContains('timeout after 3s', jsonOperand('timeout'))).toBe(true);
    expect(jsonContains({ a: 1 }, jsonOperand('"a":1'))).toBe(true);
    expect(jsonContains(1234, jsonOperand('23'))).toBe(true);
    expect(jsonContains(undefined, jsonOperand(''))).toBe(false);
  });
});
