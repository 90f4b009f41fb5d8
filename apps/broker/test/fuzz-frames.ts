import { ApiVersions, encodeRequestFrame, Fetch, Metadata, Produce, ZERO_UUID } from '@weir/protocol';
import { seededRandom } from './fixtures/seeded-random';
import { apiVersionsBody } from './raw-request-bodies';
import { batchOf, fetchBody, produceBody, rawRequestHeader } from './raw-socket';

/** How a fuzzed frame was made, so a failing seed's output says what kind of frame was sent. */
export type FuzzFrameKind =
  | 'random-bytes'
  | 'byte-flips'
  | 'truncated'
  | 'lying-length'
  | 'huge-array-count'
  | 'unsupported-version';

export const FUZZ_FRAME_KINDS: readonly FuzzFrameKind[] = [
  'random-bytes',
  'byte-flips',
  'truncated',
  'lying-length',
  'huge-array-count',
  'unsupported-version',
];

export interface FuzzFrame {
  readonly kind: FuzzFrameKind;
  /** The bytes on the wire, size prefix included (the prefix may lie). */
  readonly bytes: Buffer;
  /**
   * Whether the stream is out of step after this frame (its prefix announces more or less than
   * follows), so nothing meaningful can follow it on the same connection.
   */
  readonly endsStream: boolean;
}

/** The valid requests byte flips, truncations and version changes start from, at every version. */
function templates(topic: string): Buffer[] {
  const frames: Buffer[] = [];
  const add = (encode: () => Buffer) => {
    try {
      frames.push(encode());
    } catch {
      // A version the codec does not encode is simply not a template.
    }
  };
  for (let version = 0; version <= 3; version++) {
    add(() => encodeRequestFrame(ApiVersions, version, version, 'fuzz', apiVersionsBody()));
  }
  for (let version = 1; version <= 6; version++) {
    add(() =>
      encodeRequestFrame(Metadata, version, version, 'fuzz', {
        topics: [{ topicId: ZERO_UUID, name: topic }],
        allowAutoTopicCreation: false,
        includeClusterAuthorizedOperations: false,
        includeTopicAuthorizedOperations: false,
      }),
    );
  }
  for (let version = 3; version <= 7; version++) {
    const body = produceBody(1, [
      { topic, partitions: [{ partition: 0, records: batchOf(['fuzz-a', 'fuzz-b']) }] },
    ]);
    add(() => encodeRequestFrame(Produce, version, version, 'fuzz', body));
  }
  for (let version = 4; version <= 11; version++) {
    add(() => encodeRequestFrame(Fetch, version, version, 'fuzz', fetchBody(topic, 0, 0n)));
  }
  if (frames.length === 0) throw new Error('no request could be encoded as a fuzz template');
  return frames;
}

/** A size prefix followed by `body`, with the prefix saying `announcedBytes`. */
function withPrefix(body: Buffer, announcedBytes = body.length): Buffer {
  const frame = Buffer.alloc(4 + body.length);
  frame.writeInt32BE(announcedBytes, 0);
  body.copy(frame, 4);
  return frame;
}

/** Array counts no real request has: the reader must refuse them before allocating anything. */
const HUGE_COUNTS = [0x7fffffff, 0x10000000, 1_000_000, -2];

/**
 * Makes fuzzed Kafka frames from `random` (a seeded source: the same seed gives the same frames):
 * random bodies, byte flips, truncations and version changes of valid ApiVersions, Metadata,
 * Produce and Fetch requests, size prefixes that lie, and requests whose array counts are huge.
 * Produce and Fetch name `topic`, so some of them reach the log's checks.
 */
export function fuzzFrames(random: () => number, topic: string): () => FuzzFrame {
  const valid = templates(topic);
  const below = (limit: number) => Math.floor(random() * limit);
  const pick = <T>(items: readonly T[]): T => items[below(items.length)]!;
  const randomBytes = (length: number) => Buffer.from(Array.from({ length }, () => below(256)));

  const make: Record<FuzzFrameKind, () => FuzzFrame> = {
    'random-bytes': () => {
      const body = randomBytes(below(300));
      // Half of them start with a known API key and version, so the header is read further.
      if (body.length >= 4 && random() < 0.5) {
        body.writeInt16BE(pick([0, 1, 3, 18, 19, 36]), 0);
        body.writeInt16BE(below(12), 2);
      }
      return { kind: 'random-bytes', bytes: withPrefix(body), endsStream: false };
    },
    'byte-flips': () => {
      const frame = Buffer.from(pick(valid));
      const flips = 1 + below(8);
      for (let flip = 0; flip < flips && frame.length > 4; flip++) {
        const at = 4 + below(frame.length - 4);
        frame.writeUInt8(frame.readUInt8(at) ^ (1 + below(255)), at);
      }
      return { kind: 'byte-flips', bytes: frame, endsStream: false };
    },
    truncated: () => {
      const template = pick(valid);
      const body = template.subarray(4, 4 + below(template.length - 4));
      return { kind: 'truncated', bytes: withPrefix(Buffer.from(body)), endsStream: false };
    },
    'lying-length': () => {
      const template = pick(valid);
      const body = template.subarray(4);
      const announced = pick([
        body.length + 1 + below(4096),
        Math.max(0, body.length - 1 - below(body.length)),
        0x7fffffff,
        -1 - below(1000),
        64 * 1024 * 1024,
      ]);
      return { kind: 'lying-length', bytes: withPrefix(Buffer.from(body), announced), endsStream: true };
    },
    'huge-array-count': () => {
      const count = Buffer.alloc(4);
      count.writeInt32BE(pick(HUGE_COUNTS), 0);
      const apiKey = pick([Metadata.apiKey, Produce.apiKey, Fetch.apiKey]);
      // The fixed fields before each API's first array, at the version used.
      const fixed =
        apiKey === Metadata.apiKey
          ? { version: 1, bytes: Buffer.alloc(0) }
          : apiKey === Produce.apiKey
            ? { version: 3, bytes: Buffer.from([0xff, 0xff, 0xff, 0xff, 0, 0, 0x27, 0x10]) }
            : {
                version: 4,
                bytes: Buffer.from([0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0]),
              };
      const header = rawRequestHeader(apiKey, fixed.version, below(1000), 'fuzz');
      const body = Buffer.concat([header, fixed.bytes, count, randomBytes(below(32))]);
      return { kind: 'huge-array-count', bytes: withPrefix(body), endsStream: false };
    },
    'unsupported-version': () => {
      const frame = Buffer.from(pick(valid));
      frame.writeInt16BE(pick([-1, -32768, 12, 13, 50, 32767]), 6);
      return { kind: 'unsupported-version', bytes: frame, endsStream: false };
    },
  };
  return () => make[pick(FUZZ_FRAME_KINDS)]();
}

/**
 * Cuts `frameCount` fuzzed frames into connections of 1 to `maxFramesPerConnection` frames (a
 * connection ends early after a frame that puts the stream out of step), all decided by the seed
 * before anything is sent, so a seed replays the same connections whatever the timing.
 */
export function fuzzConnections(
  seed: number,
  topic: string,
  frameCount: number,
  maxFramesPerConnection: number,
): FuzzFrame[][] {
  const random = seededRandom(seed);
  const next = fuzzFrames(random, topic);
  const connections: FuzzFrame[][] = [];
  let made = 0;
  while (made < frameCount) {
    const wanted = 1 + Math.floor(random() * maxFramesPerConnection);
    const frames: FuzzFrame[] = [];
    while (frames.length < wanted && made < frameCount) {
      const frame = next();
      frames.push(frame);
      made += 1;
      if (frame.endsStream) break;
    }
    connections.push(frames);
  }
  return connections;
}
