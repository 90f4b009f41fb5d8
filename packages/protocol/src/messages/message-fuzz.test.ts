import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arbitraryForStruct } from '../../test/schema-arbitrary';
import { Writer } from '../codec/writer';
import { isFlexible } from '../schema/api';
import { writeRequestHeader } from './header';
import { decodeRequestFrame, decodeResponseFrame, encodeRequestFrame } from './message-codec';
import { ALL_APIS, apiByKey } from './registry';

/**
 * Fuzzing the message codec: random and mutated frames must always come back as a decode result
 * (ok or a typed error) and never as an exception. A seeded PRNG keeps failures reproducible; the
 * seed is in the failure message.
 */
const SEED = 0x5eed_1234;
const CASES_PER_KIND = 40_000;

function prng(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    // xorshift32: fast, and good enough to spread bytes and lengths.
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 0x1_0000_0000;
  };
}

function randomBytes(random: () => number, length: number): Buffer {
  const bytes = Buffer.allocUnsafe(length);
  for (let index = 0; index < length; index++) bytes[index] = Math.floor(random() * 256);
  return bytes;
}

const versionsOf = ALL_APIS.flatMap((api) =>
  Array.from({ length: api.versions.max - api.versions.min + 1 }, (_, index) => ({
    api,
    version: api.versions.min + index,
  })),
);

describe('message codec fuzzing', () => {
  it('never throws on random request bodies behind a valid header', () => {
    const random = prng(SEED);
    let decodedOk = 0;
    for (let caseIndex = 0; caseIndex < CASES_PER_KIND; caseIndex++) {
      const { api, version } = versionsOf[Math.floor(random() * versionsOf.length)]!;
      const writer = new Writer();
      writeRequestHeader(
        writer,
        { apiKey: api.apiKey, apiVersion: version, correlationId: caseIndex, clientId: 'fuzz' },
        isFlexible(api, version),
      );
      writer.raw(randomBytes(random, Math.floor(random() * 64)));
      const decoded = decodeRequestFrame(writer.finish(), apiByKey);
      if (decoded.ok) decodedOk++;
      else expect(decoded.header?.correlationId, `seed ${SEED} case ${caseIndex}`).toBe(caseIndex);
    }
    // Most random bodies are invalid, but the codec must have been exercised past the header.
    expect(decodedOk).toBeLessThan(CASES_PER_KIND);
  });

  it('never throws on random bytes as a response of any API', () => {
    const random = prng(SEED + 1);
    let failures = 0;
    for (let caseIndex = 0; caseIndex < CASES_PER_KIND; caseIndex++) {
      const { api, version } = versionsOf[Math.floor(random() * versionsOf.length)]!;
      const frame = randomBytes(random, Math.floor(random() * 96));
      const decoded = decodeResponseFrame(api, version, frame);
      if (!decoded.ok) failures++;
    }
    expect(failures).toBeGreaterThan(0);
  });

  it('never throws on truncated or bit-flipped valid requests', () => {
    const random = prng(SEED + 2);
    const samples = versionsOf.map(({ api, version }) => {
      const [body] = fc.sample(arbitraryForStruct(api.request, version), { numRuns: 1, seed: SEED });
      return encodeRequestFrame(api, version, 1, 'fuzz', body as never).subarray(4);
    });
    let rejected = 0;
    for (let caseIndex = 0; caseIndex < CASES_PER_KIND / 2; caseIndex++) {
      const frame = Buffer.from(samples[Math.floor(random() * samples.length)]!);
      const mutated =
        random() < 0.5
          ? frame.subarray(0, Math.floor(random() * frame.length))
          : (() => {
              const at = Math.floor(random() * frame.length);
              frame[at] = frame[at]! ^ (1 << Math.floor(random() * 8));
              return frame;
            })();
      if (!decodeRequestFrame(mutated, apiByKey).ok) rejected++;
    }
    expect(rejected).toBeGreaterThan(0);
  });
});
