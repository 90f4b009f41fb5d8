import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FrameAssembly } from './frame-assembly';

/** Feeds `body` to an assembly in pieces of the given sizes (cycled), as separate chunks. */
function assemble(body: Buffer, pieceSizes: readonly number[]): { frame: Buffer | undefined; adds: number } {
  const assembly = new FrameAssembly(body.length);
  let frame: Buffer | undefined;
  let adds = 0;
  for (let start = 0; start < body.length; adds++) {
    const end = Math.min(body.length, start + Math.max(1, pieceSizes[adds % pieceSizes.length]!));
    // A copy per piece, as a socket hands out a fresh chunk for every read.
    const chunk = Buffer.from(body.subarray(start, end));
    expect(frame).toBeUndefined();
    frame = assembly.add(chunk, 0, chunk.length);
    expect(assembly.bytes).toBe(end);
    start = end;
  }
  return { frame, adds };
}

describe('FrameAssembly', () => {
  it('returns the body exactly for any mix of tiny and large pieces', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 80 * 1024 }),
        fc.array(fc.oneof(fc.integer({ min: 1, max: 64 }), fc.integer({ min: 1, max: 20_000 })), {
          minLength: 1,
          maxLength: 12,
        }),
        (length, pieceSizes) => {
          const body = Buffer.from(Array.from({ length }, (_, index) => (index * 13 + 5) & 0xff));
          const { frame } = assemble(body, pieceSizes);
          expect(frame?.equals(body)).toBe(true);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('keeps a frame fed a byte at a time in a few shared buffers', () => {
    const body = Buffer.from(Array.from({ length: 40 * 1024 }, (_, index) => index & 0xff));
    const { frame, adds } = assemble(body, [1]);
    expect(adds).toBe(body.length);
    expect(frame?.equals(body)).toBe(true);
  });

  it('keeps a large piece as a view of its chunk until the frame is whole', () => {
    const assembly = new FrameAssembly(10_000);
    const first = Buffer.alloc(6000, 1);
    expect(assembly.add(first, 0, first.length)).toBeUndefined();
    // The piece is kept as a view: changing the chunk now would show in the frame (callers must
    // not, which is what lets the assembly skip the copy).
    first[0] = 9;
    const frame = assembly.add(Buffer.alloc(4000, 2), 0, 4000);
    expect(frame?.length).toBe(10_000);
    expect(frame?.[0]).toBe(9);
    expect(frame?.[5999]).toBe(1);
    expect(frame?.[6000]).toBe(2);
  });
});
