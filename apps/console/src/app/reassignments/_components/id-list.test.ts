import { describe, expect, it } from 'vitest';
import { parseIdList } from './id-list';

describe('parseIdList', () => {
  it('keeps the typed order and expands ranges', () => {
    expect(parseIdList('3, 2 4')).toEqual({ ids: [3, 2, 4] });
    expect(parseIdList('0-2,7')).toEqual({ ids: [0, 1, 2, 7] });
  });

  it('says what is wrong', () => {
    expect(parseIdList(' ')).toEqual({ problem: 'type at least one number' });
    expect(parseIdList('1,x')).toEqual({ problem: '"x" is not a number' });
    expect(parseIdList('3-1')).toEqual({ problem: 'the range 3-1 runs backwards' });
  });
});
