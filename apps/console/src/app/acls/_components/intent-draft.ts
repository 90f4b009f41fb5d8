import type { AclIntentInput } from '../../../server/api/schemas/acl-intents';

type Pattern = 'LITERAL' | 'PREFIXED';

/** What the grant-access form holds: text as typed, for both kinds of intent. */
export type IntentDraft = {
  kind: 'produce' | 'consume';
  principal: string;
  host: string;
  topic: string;
  topicPattern: Pattern;
  group: string;
  groupPattern: Pattern;
  transactionalId: string;
  transactionalIdPattern: Pattern;
  idempotent: boolean;
};

export function emptyIntentDraft(principal = ''): IntentDraft {
  return {
    kind: 'consume',
    principal,
    host: '*',
    topic: '',
    topicPattern: 'LITERAL',
    group: '',
    groupPattern: 'LITERAL',
    transactionalId: '',
    transactionalIdPattern: 'LITERAL',
    idempotent: false,
  };
}

/**
 * The gateway's intent for a draft: only the fields of the chosen kind, so switching kinds never
 * sends the other kind's leftovers, and an empty optional field is left out rather than sent empty.
 */
export function intentFromDraft(draft: IntentDraft): AclIntentInput {
  const common = {
    principal: draft.principal,
    host: draft.host,
    topic: draft.topic,
    topicPattern: draft.topicPattern,
  };
  if (draft.kind === 'consume') {
    return {
      kind: 'consume',
      ...common,
      ...(draft.group.trim() === '' ? {} : { group: draft.group }),
      groupPattern: draft.groupPattern,
    };
  }
  return {
    kind: 'produce',
    ...common,
    ...(draft.transactionalId.trim() === ''
      ? {}
      : { transactionalId: draft.transactionalId, transactionalIdPattern: draft.transactionalIdPattern }),
    idempotent: draft.idempotent,
  };
}
