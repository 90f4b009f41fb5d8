import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DecodeError } from '../codec/decode-error';
import { FrameDecoder } from './frame-decoder';
import { encodeFrame } from './frame-encoder';

/** Cuts `stream` at the given positions (any order, duplicates allowed) into consecutive chunks. */
function chunksOf(stream: Buffer, cuts: readonly number[]): Buffer[] {
  const points = [...new Set(cuts.map((cut) => cut % (stream.length + 1)))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let start = 0;
  for (const point of [...points, stream.length]) {
    chunks.push(stream.subarray(start, point));
    start = point;
  }
  return chunks;
}

function pushAll(decoder: FrameDecoder, chunks: readonly Uint8Array[]): Buffer[] {
  const frames: Buffer[] = [];
  for (const chunk of chunks) {
    const result = decoder.push(chunk);
    expect(result.error).toBeUndefined();
    frames.push(...result.frames);
  }
  return frames;
}

function sizePrefix(size: number): Buffer {
  const prefix = Buffer.alloc(4);
  prefix.writeInt32BE(size, 0);
  return prefix;
}

const payloads = fc.array(
  fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)),
  { maxLength: 20 },
);

describe('FrameDecoder reassembly', () => {
  it('reassembles random frames exactly under random chunking', () => {
    fc.assert(
      fc.property(payloads, fc.array(fc.nat(), { maxLength: 40 }), (frames, cuts) => {
        const stream = Buffer.concat(frames.map((frame) => encodeFrame(frame)));
        const decoder = new FrameDecoder({ maxFrameBytes: 300 });
        const decoded: Buffer[] = [];
        for (const chunk of chunksOf(stream, cuts)) {
          const result = decoder.push(chunk);
          expect(result.error).toBeUndefined();
          decoded.push(...result.frames);
          // Never more than one frame and its prefix is held.
          expect(decoder.bufferedBytes).toBeLessThanOrEqual(4 + 300);
        }
        expect(decoded).toEqual(frames);
        expect(decoder.bufferedBytes).toBe(0);
        expect(decoder.end()).toBeUndefined();
      }),
    );
  });

  it('reassembles when fed one byte at a time', () => {
    fc.assert(
      fc.property(payloads, (frames) => {
        const stream = Buffer.concat(frames.map((frame) => encodeFrame(frame)));
        const oneByteChunks = Array.from({ length: stream.length }, (_, index) =>
          stream.subarray(index, index + 1),
        );
        expect(pushAll(new FrameDecoder({ maxFrameBytes: 300 }), oneByteChunks)).toEqual(frames);
      }),
    );
  });

  it('reassembles frames larger than the initial partial buffer under random chunking', () => {
    const large = fc
      .tuple(fc.integer({ min: 64 * 1024, max: 300 * 1024 }), fc.integer({ min: 0, max: 255 }))
      .map(([length, seed]) => {
        const frame = Buffer.allocUnsafe(length);
        for (let index = 0; index < length; index++) frame[index] = (index * 31 + seed) & 0xff;
        return frame;
      });
    fc.assert(
      fc.property(
        fc.array(large, { minLength: 1, maxLength: 3 }),
        fc.array(fc.nat(), { maxLength: 60 }),
        (frames, cuts) => {
          const stream = Buffer.concat(frames.map((frame) => encodeFrame(frame)));
          const decoded = pushAll(new FrameDecoder({ maxFrameBytes: 300 * 1024 }), chunksOf(stream, cuts));
          // Buffer.equals keeps this fast; a deep toEqual walks every byte as a separate element.
          expect(decoded).toHaveLength(frames.length);
          expect(decoded.every((frame, index) => frame.equals(frames[index]!))).toBe(true);
        },
      ),
      { numRuns: 30 },
    );
  });

  it('reassembles a large frame fed one byte at a time', () => {
    const frame = Buffer.from(Array.from({ length: 150 * 1024 }, (_, index) => (index * 7) & 0xff));
    const stream = encodeFrame(frame);
    const decoder = new FrameDecoder();
    const decoded: Buffer[] = [];
    for (let index = 0; index < stream.length; index++) {
      decoded.push(...decoder.push(stream.subarray(index, index + 1)).frames);
    }
    expect(decoded).toHaveLength(1);
    expect(decoded[0]!.equals(frame)).toBe(true);
  });

  it('returns many frames from one chunk as views of that chunk', () => {
    const frames = [Buffer.from('first'), Buffer.alloc(0), Buffer.from('third frame')];
    const chunk = Buffer.concat(frames.map((frame) => encodeFrame(frame)));
    const result = new FrameDecoder().push(chunk);
    expect(result.frames).toEqual(frames);
    for (const frame of result.frames) expect(frame.buffer).toBe(chunk.buffer);
    expect(result.frames[0]!.byteOffset).toBe(chunk.byteOffset + 4);
  });

  it('returns a view when only the size prefix was split across chunks', () => {
    const decoder = new FrameDecoder();
    expect(decoder.push(Buffer.of(0, 0)).frames).toEqual([]);
    const rest = Buffer.concat([Buffer.of(0, 3), Buffer.from('abc')]);
    const [frame] = decoder.push(rest).frames;
    expect(frame).toEqual(Buffer.from('abc'));
    expect(frame!.buffer).toBe(rest.buffer);
  });

  it('accepts plain Uint8Array chunks', () => {
    const stream = new Uint8Array(encodeFrame(Buffer.from('xyz')));
    const frames = pushAll(new FrameDecoder(), [stream.subarray(0, 5), stream.subarray(5)]);
    expect(frames).toEqual([Buffer.from('xyz')]);
  });

  it('accepts a frame of exactly maxFrameBytes and an empty chunk', () => {
    const decoder = new FrameDecoder({ maxFrameBytes: 8 });
    expect(decoder.push(Buffer.alloc(0))).toEqual({ frames: [], error: undefined });
    expect(pushAll(decoder, [encodeFrame(Buffer.alloc(8, 7))])).toEqual([Buffer.alloc(8, 7)]);
  });

  it('reports how much of an incomplete frame it holds', () => {
    const decoder = new FrameDecoder();
    decoder.push(Buffer.of(0, 0, 0));
    expect(decoder.bufferedBytes).toBe(3);
    decoder.push(Buffer.of(10, 1, 2));
    expect(decoder.bufferedBytes).toBe(6);
    decoder.push(Buffer.alloc(8));
    expect(decoder.bufferedBytes).toBe(0);
  });
});

describe('FrameDecoder failures', () => {
  function expectFailed(decoder: FrameDecoder, kind: DecodeError['kind'], offset: number): DecodeError {
    const error = decoder.failure;
    expect(error).toBeInstanceOf(DecodeError);
    expect(error!.kind).toBe(kind);
    expect(error!.offset).toBe(offset);
    expect(decoder.bufferedBytes).toBe(0);
    // A failed decoder stays failed and yields nothing more.
    expect(decoder.push(encodeFrame(Buffer.from('ok')))).toEqual({ frames: [], error });
    return error!;
  }

  it('rejects a size above maxFrameBytes without buffering the frame', () => {
    const decoder = new FrameDecoder({ maxFrameBytes: 10 });
    const good = encodeFrame(Buffer.from('fine'));
    const result = decoder.push(Buffer.concat([good, sizePrefix(11), Buffer.alloc(11)]));
    expect(result.frames).toEqual([Buffer.from('fine')]);
    expect(result.error?.kind).toBe('frame-too-large');
    expectFailed(decoder, 'frame-too-large', good.length);
  });

  it('rejects a huge size as soon as its last prefix byte arrives', () => {
    const decoder = new FrameDecoder({ maxFrameBytes: 1024 });
    expect(decoder.push(Buffer.of(0x7f, 0xff, 0xff)).error).toBeUndefined();
    expect(decoder.push(Buffer.of(0xff, 1, 2, 3)).error?.kind).toBe('frame-too-large');
    expectFailed(decoder, 'frame-too-large', 0);
  });

  it.each([-1, -2, -(2 ** 31)])('rejects the negative size %i', (size) => {
    const decoder = new FrameDecoder();
    const result = decoder.push(Buffer.concat([sizePrefix(size), Buffer.alloc(4)]));
    expect(result.frames).toEqual([]);
    expect(result.error?.kind).toBe('invalid-length');
    expectFailed(decoder, 'invalid-length', 0);
  });

  it('reports a stream that ends inside a frame', () => {
    const decoder = new FrameDecoder();
    decoder.push(Buffer.concat([encodeFrame(Buffer.from('a')), sizePrefix(5), Buffer.from('ab')]));
    const error = decoder.end();
    expect(error?.kind).toBe('truncated');
    expect(decoder.failure).toBe(error);
  });

  it.each([-1, 1.5, 2 ** 31, Number.NaN])('refuses maxFrameBytes %s', (maxFrameBytes) => {
    expect(() => new FrameDecoder({ maxFrameBytes })).toThrow(RangeError);
  });

  it('applies a changed maximum from the next size prefix on', () => {
    const decoder = new FrameDecoder({ maxFrameBytes: 8 });
    const large = Buffer.alloc(20, 7);
    // A size accepted under the old limit is read to its end after the limit shrinks.
    expect(decoder.push(Buffer.concat([sizePrefix(8), Buffer.alloc(3)])).error).toBeUndefined();
    decoder.maxFrameBytes = 4;
    expect(decoder.push(Buffer.alloc(5)).frames).toHaveLength(1);
    expect(decoder.push(encodeFrame(large)).error?.kind).toBe('frame-too-large');
    const raised = new FrameDecoder({ maxFrameBytes: 8 });
    raised.maxFrameBytes = 20;
    expect(raised.maxFrameBytes).toBe(20);
    expect(raised.push(encodeFrame(large)).frames).toEqual([large]);
    expect(() => {
      raised.maxFrameBytes = -1;
    }).toThrow(RangeError);
  });
});
