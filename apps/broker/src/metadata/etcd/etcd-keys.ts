import { createHash } from 'node:crypto';
import type { AclBinding } from '@weir/protocol';
import type { ClientQuotaEntity } from '../metadata-store';

/**
 * The key layout of a cluster in etcd (docs/architecture.md §6.4), relative to `/weir/<cluster>/`.
 * Values are JSON. Record data, group offsets and transaction state never go here: they live in
 * the partition logs. Each key stays small, so one write is far below etcd's request limit.
 */
export const ETCD_KEYS = {
  /** The cluster's identity: `{ name, clusterId }`, written once by the first broker. */
  cluster: 'cluster',
  /** The elected controller: `{ brokerId }`, on the controller's own lease. */
  controller: 'controller',
  /** The next free producer id: `{ next }`, advanced with a compare-and-swap. */
  producerIds: 'producer-ids',
  brokersPrefix: 'brokers/',
  topicsPrefix: 'topics/',
  partitionsPrefix: 'partitions/',
  usersPrefix: 'users/',
  aclsPrefix: 'acls/',
  quotasPrefix: 'quotas/',
  /** Dynamic broker configs: `broker-configs/<node id>` or `broker-configs/default`. */
  brokerConfigsPrefix: 'broker-configs/',
  /**
   * The replication timeline: one key per event, `events/<zero-padded atMs>-<counter>-<random>`,
   * written in the transaction of the change it describes. Read in pages, never held in the image.
   */
  eventsPrefix: 'events/',
} as const;

export function eventKey(id: string): string {
  return `${ETCD_KEYS.eventsPrefix}${id}`;
}

/** The key just past every event key (the end of the `events/` range). */
export const EVENTS_END = 'events0';

export function brokerKey(brokerId: number): string {
  return `${ETCD_KEYS.brokersPrefix}${brokerId}`;
}

export function topicKey(name: string): string {
  return `${ETCD_KEYS.topicsPrefix}${name}`;
}

/** Topic names cannot hold "/", so the topic's partitions form one prefix of their own. */
export function partitionsPrefixOf(topic: string): string {
  return `${ETCD_KEYS.partitionsPrefix}${topic}/`;
}

export function partitionKey(topic: string, partition: number): string {
  return `${partitionsPrefixOf(topic)}${partition}`;
}

export function userKey(name: string): string {
  return `${ETCD_KEYS.usersPrefix}${encodeURIComponent(name)}`;
}

/** An ACL's key is a digest of its fields, so adding an existing ACL writes the same key again. */
export function aclKey(binding: AclBinding): string {
  const canonical = JSON.stringify([
    binding.resourceType,
    binding.resourceName,
    binding.patternType,
    binding.principal,
    binding.host,
    binding.operation,
    binding.permission,
  ]);
  return `${ETCD_KEYS.aclsPrefix}${createHash('sha256').update(canonical).digest('hex')}`;
}

/** The key of a dynamic broker config scope ("" is the cluster default). */
export function brokerConfigKey(scope: string): string {
  return `${ETCD_KEYS.brokerConfigsPrefix}${scope === '' ? 'default' : scope}`;
}

/** Absent and default (null) entity types are different entities, so both are spelt out. */
export function quotaKey(entity: ClientQuotaEntity): string {
  const part = (name: string | null | undefined) =>
    name === undefined ? '-' : name === null ? '*' : `=${encodeURIComponent(name)}`;
  return `${ETCD_KEYS.quotasPrefix}${part(entity.user)}/${part(entity.clientId)}`;
}

/** What a key names, for the image the watch feeds. */
export type ParsedKey =
  | { kind: 'cluster' | 'controller' | 'producer-ids' }
  | { kind: 'broker'; brokerId: number }
  | { kind: 'topic'; name: string }
  | { kind: 'partition'; topic: string; partition: number }
  | { kind: 'user'; name: string }
  | { kind: 'acl'; id: string }
  | { kind: 'quota'; id: string }
  | { kind: 'broker-config'; scope: string }
  | { kind: 'event' }
  | { kind: 'unknown' };

export function parseKey(key: string): ParsedKey {
  if (key === ETCD_KEYS.cluster) return { kind: 'cluster' };
  if (key === ETCD_KEYS.controller) return { kind: 'controller' };
  if (key === ETCD_KEYS.producerIds) return { kind: 'producer-ids' };
  const after = (prefix: string) => (key.startsWith(prefix) ? key.slice(prefix.length) : undefined);
  const broker = after(ETCD_KEYS.brokersPrefix);
  if (broker !== undefined && /^\d+$/.test(broker)) return { kind: 'broker', brokerId: Number(broker) };
  const topic = after(ETCD_KEYS.topicsPrefix);
  if (topic !== undefined) return { kind: 'topic', name: topic };
  const partition = after(ETCD_KEYS.partitionsPrefix);
  if (partition !== undefined) {
    const slash = partition.lastIndexOf('/');
    const number = partition.slice(slash + 1);
    if (slash > 0 && /^\d+$/.test(number)) {
      return { kind: 'partition', topic: partition.slice(0, slash), partition: Number(number) };
    }
  }
  const user = after(ETCD_KEYS.usersPrefix);
  if (user !== undefined) return { kind: 'user', name: decodeURIComponent(user) };
  const acl = after(ETCD_KEYS.aclsPrefix);
  if (acl !== undefined) return { kind: 'acl', id: acl };
  if (key.startsWith(ETCD_KEYS.eventsPrefix)) return { kind: 'event' };
  const quota = after(ETCD_KEYS.quotasPrefix);
  if (quota !== undefined) return { kind: 'quota', id: quota };
  const brokerConfig = after(ETCD_KEYS.brokerConfigsPrefix);
  if (brokerConfig === 'default') return { kind: 'broker-config', scope: '' };
  if (brokerConfig !== undefined && /^\d+$/.test(brokerConfig))
    return { kind: 'broker-config', scope: brokerConfig };
  return { kind: 'unknown' };
}
