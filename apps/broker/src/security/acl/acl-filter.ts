import { ACL_WILDCARD, type AclBinding, type AclBindingFilter } from '@weir/protocol';

/**
 * Whether `filter` selects `binding`, with Kafka's semantics (`AclBindingFilter.matches`): null
 * and ANY match anything; a named filter with pattern type ANY or the binding's own type needs the
 * exact name; MATCH selects every ACL that applies to the named resource (LITERAL of that name or
 * `*`, PREFIXED whose prefix the name starts with).
 */
export function aclFilterMatches(filter: AclBindingFilter, binding: AclBinding): boolean {
  return resourceMatches(filter, binding) && entryMatches(filter, binding);
}

function resourceMatches(filter: AclBindingFilter, binding: AclBinding): boolean {
  if (filter.resourceType !== 'ANY' && filter.resourceType !== binding.resourceType) return false;
  const { patternType, resourceName } = filter;
  if (patternType !== 'ANY' && patternType !== 'MATCH' && patternType !== binding.patternType) return false;
  if (resourceName === null) return true;
  if (patternType !== 'MATCH') return resourceName === binding.resourceName;
  return binding.patternType === 'LITERAL'
    ? resourceName === binding.resourceName || binding.resourceName === ACL_WILDCARD
    : resourceName.startsWith(binding.resourceName);
}

function entryMatches(filter: AclBindingFilter, binding: AclBinding): boolean {
  return (
    (filter.principal === null || filter.principal === binding.principal) &&
    (filter.host === null || filter.host === binding.host) &&
    (filter.operation === 'ANY' || filter.operation === binding.operation) &&
    (filter.permission === 'ANY' || filter.permission === binding.permission)
  );
}
