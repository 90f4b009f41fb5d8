import { describe, expect, it } from 'vitest';
import { aclKey, brokerKey, parseKey, partitionKey, quotaKey, topicKey, userKey } from './etcd-keys';

describe('the etcd key layout', () => {
  it('parses every key it builds back to what it names', () => {
    expect(parseKey(brokerKey(3))).toEqual({ kind: 'broker', brokerId: 3 });
    expect(parseKey(topicKey('a.b-c'))).toEqual({ kind: 'topic', name: 'a.b-c' });
    expect(parseKey(partitionKey('a.b-c', 12))).toEqual({ kind: 'partition', topic: 'a.b-c', partition: 12 });
    expect(parseKey(userKey('al/ice %'))).toEqual({ kind: 'user', name: 'al/ice %' });
    expect(parseKey('controller')).toEqual({ kind: 'controller' });
    expect(parseKey('brokers/x')).toEqual({ kind: 'unknown' });
  });

  it('gives the same ACL the same key and different ACLs different keys', () => {
    const acl = {
      resourceType: 'TOPIC',
      resourceName: 'orders',
      patternType: 'LITERAL',
      principal: 'User:alice',
      host: '*',
      operation: 'READ',
      permission: 'ALLOW',
    } as const;
    expect(aclKey({ ...acl })).toBe(aclKey(acl));
    expect(aclKey({ ...acl, operation: 'WRITE' })).not.toBe(aclKey(acl));
  });

  it('keeps absent and default quota entity types apart', () => {
    expect(quotaKey({ user: null })).not.toBe(quotaKey({ user: null, clientId: null }));
    expect(quotaKey({ user: 'a' })).not.toBe(quotaKey({ clientId: 'a' }));
  });
});
