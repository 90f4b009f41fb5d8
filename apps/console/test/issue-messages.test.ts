import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { produceInputSchema } from '../src/server/api/schemas/messages';
import { createTopicInputSchema } from '../src/server/api/schemas/topics';

/** The first issue's message per dotted path. */
function messages(result: { success: boolean; error?: z.ZodError }): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) fields[issue.path.join('.')] ??= issue.message;
  return fields;
}

describe("the console's words for input errors", () => {
  it('says what a number, a text or a list must be, without zod’s jargon', () => {
    expect(messages(createTopicInputSchema.safeParse({ name: 'ok', partitions: 0 }))).toEqual({
      partitions: 'must be at least 1',
    });
    expect(messages(createTopicInputSchema.safeParse({ name: 'ok', partitions: 20_000 }))).toEqual({
      partitions: 'must be at most 10000',
    });
    expect(messages(createTopicInputSchema.safeParse({ name: 'ok', partitions: 'three' }))).toEqual({
      partitions: 'must be a number, not text',
    });
    expect(messages(createTopicInputSchema.safeParse({ partitions: 1 }))).toEqual({ name: 'is required' });
    expect(messages(createTopicInputSchema.safeParse({ name: '', partitions: 1 }))).toEqual({
      name: 'must not be empty',
    });
    const headers = Array.from({ length: 101 }, () => ({ key: 'k', value: null }));
    expect(messages(produceInputSchema.safeParse({ topic: 't', value: null, headers }))).toEqual({
      headers: 'takes at most 100 entries',
    });
  });

  it("keeps a schema's own words", () => {
    expect(messages(createTopicInputSchema.safeParse({ name: 'bad name!', partitions: 1 }))).toEqual({
      name: 'a topic name uses only letters, digits, ".", "_" and "-"',
    });
    expect(z.number().min(5, 'five or more').safeParse(1).error?.issues[0]?.message).toBe('five or more');
  });
});
