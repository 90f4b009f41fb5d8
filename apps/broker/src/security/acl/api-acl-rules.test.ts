import { describe, expect, it } from 'vitest';
import { clientListenerHandlers, internalListenerHandlers } from '../../server/api-table';
import { HandlerRegistry } from '../../server/handler-registry';
import { API_ACL_RULES, assertAclRulesFor } from './api-acl-rules';

describe('API_ACL_RULES', () => {
  it('covers every API both listeners serve, so their registries build', () => {
    expect(() => new HandlerRegistry(clientListenerHandlers(true))).not.toThrow();
    expect(() => new HandlerRegistry(internalListenerHandlers())).not.toThrow();
  });

  it('fails loudly for an API without a rule', () => {
    expect(() => assertAclRulesFor(['Produce', 'SomethingNew'])).toThrow(
      /no authorization rule for SomethingNew/,
    );
  });

  it('denies with the error code of the resource the rule protects', () => {
    expect(API_ACL_RULES.Produce.topic.denied).toBe(29);
    expect(API_ACL_RULES.JoinGroup.group.denied).toBe(30);
    expect(API_ACL_RULES.CreateAcls.cluster.denied).toBe(31);
    expect(API_ACL_RULES.EndTxn.transactionalId.denied).toBe(53);
    // CREATE on the cluster or the topic: a denied topic is the topic's failure.
    expect(API_ACL_RULES.CreateTopics.create.denied).toBe(29);
  });
});
