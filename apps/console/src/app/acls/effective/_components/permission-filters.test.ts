import { describe, expect, it } from 'vitest';
import type { ResourcePermissionsView } from '../../../../server/api/schemas/effective-permissions';
import { filterResources } from './permission-filters';

function resource(
  resourceType: ResourcePermissionsView['resourceType'],
  resourceName: string,
  allowed: boolean,
): ResourcePermissionsView {
  return {
    resourceType,
    resourceName,
    patternType: 'LITERAL',
    exists: true,
    operations: [
      { operation: 'READ', allowed, reason: allowed ? 'ALLOW_ACL' : 'NO_MATCHING_ALLOW', acls: [] },
      { operation: 'DELETE', allowed: false, reason: 'NO_MATCHING_ALLOW', acls: [] },
    ],
  };
}

const RESOURCES = [
  resource('CLUSTER', 'kafka-cluster', false),
  resource('TOPIC', 'orders', true),
  resource('TOPIC', 'Orders-Archive', false),
  resource('GROUP', 'orders-app', true),
];

const names = (list: readonly ResourcePermissionsView[]) => list.map((r) => r.resourceName);

describe('filterResources', () => {
  it('keeps everything without filters, in order', () => {
    expect(names(filterResources(RESOURCES, { type: null, search: '', onlyAllowed: false }))).toEqual(
      names(RESOURCES),
    );
  });

  it('filters by type, by a case-insensitive part of the name, and by something allowed', () => {
    expect(names(filterResources(RESOURCES, { type: 'TOPIC', search: '', onlyAllowed: false }))).toEqual([
      'orders',
      'Orders-Archive',
    ]);
    expect(names(filterResources(RESOURCES, { type: null, search: ' ORDERS', onlyAllowed: false }))).toEqual([
      'orders',
      'Orders-Archive',
      'orders-app',
    ]);
    expect(names(filterResources(RESOURCES, { type: null, search: 'orders', onlyAllowed: true }))).toEqual([
      'orders',
      'orders-app',
    ]);
  });
});
