import { describe, expect, it } from 'vitest';
import { aclIntentSchema } from '../../../server/api/schemas/acl-intents';
import { emptyIntentDraft, intentFromDraft } from './intent-draft';

describe('intentFromDraft', () => {
  it("sends only the chosen kind's fields, so leftovers of the other kind never fail validation", () => {
    const draft = {
      ...emptyIntentDraft('User:alice'),
      topic: 'orders',
      group: 'g1',
      transactionalId: 'tx',
      idempotent: true,
    };
    const consume = intentFromDraft({ ...draft, kind: 'consume' });
    expect(consume).toEqual({
      kind: 'consume',
      principal: 'User:alice',
      host: '*',
      topic: 'orders',
      topicPattern: 'LITERAL',
      group: 'g1',
      groupPattern: 'LITERAL',
    });
    expect(aclIntentSchema.safeParse(consume).success).toBe(true);
    const produce = intentFromDraft({ ...draft, kind: 'produce' });
    expect(produce).not.toHaveProperty('group');
    expect(produce).toMatchObject({ transactionalId: 'tx', idempotent: true });
    expect(aclIntentSchema.safeParse(produce).success).toBe(true);
  });

  it('leaves out an empty transactional id instead of sending it empty', () => {
    const produce = intentFromDraft({
      ...emptyIntentDraft('User:a'),
      kind: 'produce',
      topic: 't',
      transactionalId: ' ',
    });
    expect(produce).not.toHaveProperty('transactionalId');
    expect(aclIntentSchema.safeParse(produce).success).toBe(true);
  });
});
