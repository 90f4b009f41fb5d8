import { describe, expect, it } from 'vitest';
import { lockoutSentence, operationWord } from './lockout-text';

describe('lockoutSentence', () => {
  it('names the principal, the operations in words and the resource', () => {
    expect(
      lockoutSentence({
        principal: 'User:bob',
        grantee: false,
        resourceType: 'TOPIC',
        resourceName: 'orders',
        operations: ['READ', 'DESCRIBE_CONFIGS'],
      }),
    ).toBe('User:bob loses Read, Describe configs on topic orders');
  });

  it('words the cluster without its name and shows bidi controls in names', () => {
    expect(
      lockoutSentence({
        principal: 'User:bob',
        grantee: false,
        resourceType: 'CLUSTER',
        resourceName: 'kafka-cluster',
        operations: ['IDEMPOTENT_WRITE'],
      }),
    ).toBe('User:bob loses Idempotent write on the cluster');
    expect(
      lockoutSentence({
        principal: 'User:eve',
        grantee: false,
        resourceType: 'GROUP',
        resourceName: 'g\u202e1',
        operations: ['READ'],
      }),
    ).not.toContain('\u202e');
  });

  it('capitalizes only the first word of an operation', () => {
    expect(operationWord('ALTER_CONFIGS')).toBe('Alter configs');
  });
});
