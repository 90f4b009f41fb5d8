// The browser-safe entry point of @weir/protocol (`@weir/protocol/names`): the name lists Kafka and
// Weir define (ACLs, transactional-id states, compression and timestamp types, config sources,
// SCRAM mechanisms, permission reasons, partition health states, audited actions) and their types. Browser code
// cannot load the package's root entry, which brings sockets and native compression codecs; every
// module reached from here imports nothing outside this package and nothing from Node.js
// (names.test.ts checks it). Every name is listed explicitly: no `export *`.

export type { AclOperation, AclPatternType, AclPermission, AclResourceType } from './client/acl/acl-types';
export {
  ACL_OPERATIONS,
  ACL_PATTERN_TYPES,
  ACL_PERMISSIONS,
  ACL_RESOURCE_TYPES,
  ACL_WILDCARD,
  ACL_WILDCARD_PRINCIPAL,
  CLUSTER_RESOURCE_NAME,
} from './client/acl/acl-types';
export type { ConfigSource, ConfigValueType } from './client/admin-types';
export { CONFIG_SOURCES, CONFIG_VALUE_TYPES } from './client/admin-types';
export type { ScramMechanism } from './client/auth/scram-mechanisms';
export { SCRAM_MECHANISMS } from './client/auth/scram-mechanisms';
export type { PartitionHealthState } from './client/health/partition-health-states';
export { PARTITION_HEALTH_STATES } from './client/health/partition-health-states';
export type { AuditAction } from './client/internal/audit-event-types';
export { AUDIT_ACTIONS } from './client/internal/audit-event-types';
export type { PermissionReason } from './client/internal/effective-permission-types';
export { PERMISSION_REASONS } from './client/internal/effective-permission-types';
export type { TransactionalIdState } from './client/transaction/transactional-id-state';
export { TRANSACTIONAL_ID_STATES } from './client/transaction/transactional-id-state';
export type { CompressionType, TimestampType } from './records/batch-attributes';
export { COMPRESSION_TYPES, TIMESTAMP_TYPES } from './records/batch-attributes';
