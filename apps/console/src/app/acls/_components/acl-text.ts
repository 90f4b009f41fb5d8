import { showBidiControls } from '@weir/ui';
import type { AclBindingView } from '../../../server/api/schemas/acls';

/** A stable key per ACL for React lists: every field, in order. */
export function aclKey(acl: AclBindingView): string {
  return [
    acl.principal,
    acl.resourceType,
    acl.patternType,
    acl.resourceName,
    acl.host,
    acl.operation,
    acl.permission,
  ].join('|');
}

/** The resource as people read it: a prefix ends in `*`, bidi controls show as markers. */
export function aclResourceText(acl: Pick<AclBindingView, 'resourceType' | 'resourceName' | 'patternType'>) {
  const name = showBidiControls(acl.resourceName);
  return `${acl.resourceType} ${acl.patternType === 'PREFIXED' ? `${name}*` : name}`;
}

/** The rule in words; also what typing confirms a deletion with. */
export function describeAcl(acl: AclBindingView): string {
  return `${acl.permission} ${acl.principal} ${acl.operation} ${acl.resourceType}:${acl.resourceName}`;
}

/** The pattern choices of a resource name, worded for forms. */
export const PATTERN_OPTIONS = [
  { value: 'LITERAL', label: 'Literal (exactly this name)' },
  { value: 'PREFIXED', label: 'Prefixed (names starting with it)' },
] as const;
