import { Session } from 'node:inspector/promises';
import { describe, expect, it } from 'vitest';
import { type CpuProfile, type CpuProfileNode, callerChains, summarizeProfiles } from './cpu-profile';

const frame = (
  id: number,
  functionName: string,
  lineNumber: number,
  children: number[] = [],
): CpuProfileNode => ({
  id,
  callFrame: {
    functionName,
    url: functionName.startsWith('(') ? '' : 'file:///app.js',
    lineNumber,
    columnNumber: 0,
  },
  children,
});

// (root) → main → walk → walk (recursion), and (root) → (garbage collector).
const profile: CpuProfile = {
  nodes: [
    frame(1, '(root)', -1, [2, 5]),
    frame(2, 'main', 0, [3]),
    frame(3, 'walk', 9, [4]),
    frame(4, 'walk', 9),
    frame(5, '(garbage collector)', -1),
  ],
  startTime: 1000,
  endTime: 1100,
  // Samples at 1010, 1020, 1050, 1060, 1090; each lasts until the next, the last until endTime.
  samples: [2, 3, 4, 5, 4],
  timeDeltas: [10, 10, 30, 10, 30],
};

describe('summarizeProfiles', () => {
  it('gives each sample the time until the next and counts a recursive function once per stack', () => {
    const summary = summarizeProfiles([profile]);
    const byName = new Map(summary.functions.map((entry) => [entry.name, entry]));
    expect(summary.totalUs).toBe(90);
    expect(byName.get('main')).toMatchObject({
      selfUs: 10,
      totalUs: 10 + 30 + 10 + 10,
      location: 'file:///app.js:1',
    });
    // walk: its outer frame sampled 30 µs, the inner 10 + 10; total is the same 50, not 80.
    expect(byName.get('walk')).toMatchObject({ selfUs: 50, totalUs: 50, location: 'file:///app.js:10' });
    expect(byName.get('(garbage collector)')).toMatchObject({ selfUs: 30, totalUs: 30, location: '' });
    expect(byName.get('(root)')).toMatchObject({ selfUs: 0, totalUs: 90 });
  });

  it('sums several profiles function by function', () => {
    const summary = summarizeProfiles([profile, profile]);
    expect(summary.totalUs).toBe(180);
    expect(summary.functions.find((entry) => entry.name === 'walk')).toMatchObject({
      selfUs: 100,
      totalUs: 100,
    });
  });

  it('groups the self time of a function by the chain of its nearest callers', () => {
    // The outer walk (called by main) sampled 30 µs, the inner one (called by walk) 10 + 10.
    expect(callerChains([profile], 'walk', 2)).toEqual([
      { callers: ['main file:///app.js:1', '(root)'], selfUs: 30 },
      { callers: ['walk file:///app.js:10', 'main file:///app.js:1'], selfUs: 20 },
    ]);
    expect(callerChains([profile, profile], 'walk', 1)).toEqual([
      { callers: ['main file:///app.js:1'], selfUs: 60 },
      { callers: ['walk file:///app.js:10'], selfUs: 40 },
    ]);
    expect(callerChains([profile], 'absent', 3)).toEqual([]);
  });

  it('finds the function a real V8 profile spent its time in', async () => {
    const session = new Session();
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 200 });
    await session.post('Profiler.start');
    spinForProfile(300);
    const { profile: real } = await session.post('Profiler.stop');
    session.disconnect();
    const summary = summarizeProfiles([real as CpuProfile]);
    const top = [...summary.functions].sort((a, b) => b.selfUs - a.selfUs)[0]!;
    expect(top.name).toBe('spinForProfile');
    expect(top.location).toMatch(/cpu-profile\.test\.ts:\d+$/);
    expect(top.selfUs).toBeGreaterThan(summary.totalUs / 2);
  });
});

/** Burns CPU in this one frame for `durationMs`, so the profile must name it first. */
function spinForProfile(durationMs: number): number {
  const endMs = performance.now() + durationMs;
  let value = 0;
  // The clock is read once per 100,000 steps, so its own frame takes a negligible share.
  do {
    for (let step = 0; step < 100_000; step++) value = (value * 31 + 7) % 1_000_003;
  } while (performance.now() < endMs);
  return value;
}
