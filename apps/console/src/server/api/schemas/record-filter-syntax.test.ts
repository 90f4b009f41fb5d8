import { describe, expect, it } from 'vitest';
import { FILTER_TEXT_PATTERN, formatFilterText, parseFilterText } from './record-filter-syntax';

describe('the text form of record filters', () => {
  it.each([
    ['value:contains:a:b', { field: 'value', operator: 'contains', value: 'a:b' }],
    ['headerKey:equals:trace-id', { field: 'headerKey', operator: 'equals', value: 'trace-id' }],
    ['value.user.id:equals:42', { field: 'valueJson', operator: 'equals', value: '42', path: 'user.id' }],
    ['key[0].id:contains:x', { field: 'keyJson', operator: 'contains', value: 'x', path: '[0].id' }],
    [
      'value["a:b"].c:equals:1:2',
      { field: 'valueJson', operator: 'equals', value: '1:2', path: '["a:b"].c' },
    ],
  ])('parses %j and formats it back unchanged', (text, parts) => {
    expect(FILTER_TEXT_PATTERN.test(text)).toBe(true);
    expect(parseFilterText(text)).toEqual(parts);
    expect(formatFilterText(parseFilterText(text))).toBe(text);
  });

  it.each(['values.x:equals:1', 'value:matches:x', 'value', 'headerKey.x:equals:1'])(
    'the schema pattern refuses %j',
    (text) => {
      expect(FILTER_TEXT_PATTERN.test(text)).toBe(false);
    },
  );

  it('throws a RangeError for text without operator and operand', () => {
    expect(() => parseFilterText('value.user')).toThrow(RangeError);
  });
});
