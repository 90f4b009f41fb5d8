import type { AclBinding } from '@weir/protocol';

/**
 * For the unit tests beside this file: an ALLOW for User:alice on the LITERAL topic `orders` from
 * any host, with the operation and whatever else differs given.
 */
export function acl(partial: Partial<AclBinding> & Pick<AclBinding, 'operation'>): AclBinding {
  return {
    resourceType: 'TOPIC',
    resourceName: 'orders',
    patternType: 'LITERAL',
    principal: 'User:alice',
    host: '*',
    permission: 'ALLOW',
    ...partial,
  };
}
