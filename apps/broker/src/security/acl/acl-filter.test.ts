import { type AclBinding, type AclBindingFilter, MATCH_ALL_ACLS } from '@weir/protocol';
import { describe, expect, it } from 'vitest';
import { aclFilterMatches } from './acl-filter';

const literal: AclBinding = {
  resourceType: 'TOPIC',
  resourceName: 'orders',
  patternType: 'LITERAL',
  principal: 'User:alice',
  host: '*',
  operation: 'READ',
  permission: 'ALLOW',
};
const prefixed: AclBinding = { ...literal, resourceName: 'ord', patternType: 'PREFIXED' };
const wildcard: AclBinding = { ...literal, resourceName: '*' };

describe('aclFilterMatches', () => {
  const cases: { name: string; filter: AclBindingFilter; matches: AclBinding[] }[] = [
    { name: 'everything', filter: MATCH_ALL_ACLS, matches: [literal, prefixed, wildcard] },
    {
      name: 'LITERAL by exact name',
      filter: { ...MATCH_ALL_ACLS, patternType: 'LITERAL', resourceName: 'orders' },
      matches: [literal],
    },
    {
      name: 'ANY pattern by exact name',
      filter: { ...MATCH_ALL_ACLS, resourceName: 'ord' },
      matches: [prefixed],
    },
    {
      name: 'MATCH: every ACL applying to the name',
      filter: { ...MATCH_ALL_ACLS, patternType: 'MATCH', resourceName: 'orders' },
      matches: [literal, prefixed, wildcard],
    },
    {
      name: 'MATCH of a name only the wildcard covers',
      filter: { ...MATCH_ALL_ACLS, patternType: 'MATCH', resourceName: 'payments' },
      matches: [wildcard],
    },
    { name: 'by principal', filter: { ...MATCH_ALL_ACLS, principal: 'User:bob' }, matches: [] },
    { name: 'by resource type', filter: { ...MATCH_ALL_ACLS, resourceType: 'GROUP' }, matches: [] },
    {
      name: 'by operation',
      filter: { ...MATCH_ALL_ACLS, operation: 'READ' },
      matches: [literal, prefixed, wildcard],
    },
    { name: 'by permission', filter: { ...MATCH_ALL_ACLS, permission: 'DENY' }, matches: [] },
  ];
  it.each(cases)('$name', ({ filter, matches }) => {
    expect([literal, prefixed, wildcard].filter((binding) => aclFilterMatches(filter, binding))).toEqual(
      matches,
    );
  });
});
