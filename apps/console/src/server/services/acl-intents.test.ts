import { describe, expect, it } from 'vitest';
import { type AclIntentInput, aclIntentSchema } from '../api/schemas/acl-intents';
import type { AclBindingView } from '../api/schemas/acls';
import { aclBindingKey, expandAclIntent } from './acl-intents';

/** Parses like the gateway does, so defaults (host, patterns) are the ones callers get. */
function expand(input: AclIntentInput): AclBindingView[] {
  return expandAclIntent(aclIntentSchema.parse(input));
}

/** The bindings as short `TYPE:name(PATTERN) OPERATION` lines, which read well in failures. */
function summary(bindings: readonly AclBindingView[]): string[] {
  return bindings.map(
    (binding) =>
      `${binding.resourceType}:${binding.resourceName}(${binding.patternType}) ${binding.operation} ${binding.permission}`,
  );
}

/** The fields a schema rejects, each with its first message (the one forms show). */
function problems(input: Record<string, unknown>): Record<string, string> {
  const result = aclIntentSchema.safeParse(input);
  const fields: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) fields[issue.path.join('.')] ??= issue.message;
  return fields;
}

describe('expandAclIntent', () => {
  it('expands produce to WRITE, DESCRIBE and CREATE on the topic', () => {
    const bindings = expand({ kind: 'produce', principal: 'User:alice', topic: 'orders' });
    expect(summary(bindings)).toEqual([
      'TOPIC:orders(LITERAL) WRITE ALLOW',
      'TOPIC:orders(LITERAL) DESCRIBE ALLOW',
      'TOPIC:orders(LITERAL) CREATE ALLOW',
    ]);
    expect(bindings.every((binding) => binding.principal === 'User:alice' && binding.host === '*')).toBe(
      true,
    );
  });

  it('adds the transactional id and the cluster for a transactional, idempotent producer', () => {
    const bindings = expand({
      kind: 'produce',
      principal: 'User:billing',
      host: '10.0.0.7',
      topic: 'billing-',
      topicPattern: 'PREFIXED',
      transactionalId: 'billing-tx-',
      transactionalIdPattern: 'PREFIXED',
      idempotent: true,
    });
    expect(summary(bindings)).toEqual([
      'TOPIC:billing-(PREFIXED) WRITE ALLOW',
      'TOPIC:billing-(PREFIXED) DESCRIBE ALLOW',
      'TOPIC:billing-(PREFIXED) CREATE ALLOW',
      'TRANSACTIONAL_ID:billing-tx-(PREFIXED) WRITE ALLOW',
      'TRANSACTIONAL_ID:billing-tx-(PREFIXED) DESCRIBE ALLOW',
      'CLUSTER:kafka-cluster(LITERAL) IDEMPOTENT_WRITE ALLOW',
    ]);
    expect(new Set(bindings.map((binding) => binding.host))).toEqual(new Set(['10.0.0.7']));
  });

  it('expands consume to READ and DESCRIBE on the topic and READ on the group', () => {
    const bindings = expand({
      kind: 'consume',
      principal: 'User:bob',
      topic: 'orders',
      group: 'g1',
      groupPattern: 'PREFIXED',
    });
    expect(summary(bindings)).toEqual([
      'TOPIC:orders(LITERAL) READ ALLOW',
      'TOPIC:orders(LITERAL) DESCRIBE ALLOW',
      'GROUP:g1(PREFIXED) READ ALLOW',
    ]);
  });

  it('gives every binding of an intent its own key', () => {
    const bindings = expand({
      kind: 'produce',
      principal: 'User:alice',
      topic: '*',
      transactionalId: 'tx',
      idempotent: true,
    });
    expect(new Set(bindings.map(aclBindingKey)).size).toBe(bindings.length);
  });
});

describe('aclIntentSchema', () => {
  it('names the field of each problem', () => {
    expect(problems({ kind: 'produce', principal: 'alice', topic: 'orders' })).toEqual({
      principal: 'a principal is User:<name> (User:* for everyone)',
    });
    expect(problems({ kind: 'produce', principal: 'User:alice', topic: 'bad name!' })).toHaveProperty(
      'topic',
    );
    expect(problems({ kind: 'produce', principal: 'User:alice', topic: '' })).toEqual({
      topic: 'Enter a topic name (or a prefix).',
    });
    expect(problems({ kind: 'produce', principal: 'User:alice', topic: 'orders', host: ' ' })).toEqual({
      host: 'Enter a host, or * for any host.',
    });
    expect(problems({ kind: 'delete', principal: 'User:alice', topic: 'orders' })).toHaveProperty('kind');
  });

  it('asks for a group when consuming and refuses fields of the other kind', () => {
    expect(problems({ kind: 'consume', principal: 'User:bob', topic: 'orders' })).toEqual({
      group: 'Enter the consumer group (or a prefix).',
    });
    expect(
      problems({
        kind: 'consume',
        principal: 'User:bob',
        topic: 'orders',
        group: 'g1',
        transactionalId: 'tx',
        idempotent: true,
      }),
    ).toEqual({
      transactionalId: 'A transactional id belongs to a produce intent.',
      idempotent: 'Idempotent writes belong to a produce intent.',
    });
    expect(problems({ kind: 'produce', principal: 'User:bob', topic: 'orders', group: 'g1' })).toEqual({
      group: 'A consumer group belongs to a consume intent.',
    });
  });

  it('refuses * as a prefix but accepts it as every name', () => {
    expect(problems({ kind: 'produce', principal: 'User:a', topic: '*', topicPattern: 'PREFIXED' })).toEqual({
      topic: 'A prefix cannot be *: choose the literal pattern for every topic.',
    });
    expect(problems({ kind: 'consume', principal: 'User:a', topic: '*', group: '*' })).toEqual({});
  });

  it('fills in the defaults: any host, literal patterns, not idempotent', () => {
    expect(aclIntentSchema.parse({ kind: 'produce', principal: ' User:a ', topic: ' t ' })).toEqual({
      kind: 'produce',
      principal: 'User:a',
      host: '*',
      topic: 't',
      topicPattern: 'LITERAL',
      groupPattern: 'LITERAL',
      transactionalIdPattern: 'LITERAL',
      idempotent: false,
    });
  });
});
