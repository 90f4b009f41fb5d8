import { describe, expect, it } from 'vitest';
import { formatCount, formatRate, formatTable } from './table';

describe('formatTable', () => {
  it('pads columns to their widest cell and right-aligns numeric ones', () => {
    const table = formatTable(
      [{ title: 'codec' }, { title: 'rec/s', alignRight: true }],
      [
        ['none', '5,000,000'],
        ['zstd', '12'],
      ],
    );
    expect(table.split('\n')).toEqual([
      'codec      rec/s',
      '-----  ---------',
      'none   5,000,000',
      'zstd          12',
    ]);
  });

  it('formats counts with separators and rates with one decimal', () => {
    expect(formatCount(1234567.6)).toBe('1,234,568');
    expect(formatRate(1234.56)).toBe('1,234.6');
    expect(formatRate(7)).toBe('7.0');
  });
});
