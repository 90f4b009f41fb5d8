import { describe, expect, it } from 'vitest';
import { floorShareTarget, judge, limitTarget } from './targets';

describe('judge', () => {
  it('compares a share of the floor and shows the ratio to the floor', () => {
    const target = floorShareTarget(0.8, 500);
    expect(judge(450, target)).toEqual({ ratio: '0.90 × floor', met: true });
    expect(judge(350, target)).toEqual({ ratio: '0.70 × floor', met: false });
  });

  it('treats an upper limit as strict and shows the ratio to it', () => {
    const target = limitTarget('< 100 ms', 'below', 100);
    expect(judge(14, target)).toEqual({ ratio: '0.14 × target', met: true });
    expect(judge(100, target).met).toBe(false);
  });
});
