import { CLUSTER_RESOURCE_NAME } from '@weir/protocol/names';
import type { AclIntent } from '../api/schemas/acl-intents';
import type { AclBindingView, AclOperationView } from '../api/schemas/acls';

/*
 * Expanding an ACL intent into ACLs, the way `kafka-acls --producer` and `--consumer` do:
 *
 * - produce: WRITE, DESCRIBE and CREATE on the topic (CREATE lets a producer's metadata request
 *   auto-create it where the broker allows that); with a transactional id, WRITE and DESCRIBE on
 *   it; idempotent, IDEMPOTENT_WRITE on the cluster.
 * - consume: READ and DESCRIBE on the topic, READ on the group.
 *
 * Every ACL is an ALLOW for the intent's principal and host. Pure, so the list a person previews
 * is exactly the list the gateway creates.
 */

const PRODUCE_TOPIC_OPERATIONS: readonly AclOperationView[] = ['WRITE', 'DESCRIBE', 'CREATE'];
const TRANSACTIONAL_ID_OPERATIONS: readonly AclOperationView[] = ['WRITE', 'DESCRIBE'];
const CONSUME_TOPIC_OPERATIONS: readonly AclOperationView[] = ['READ', 'DESCRIBE'];
const CONSUME_GROUP_OPERATIONS: readonly AclOperationView[] = ['READ'];

type ResourceOf = Pick<AclBindingView, 'resourceType' | 'resourceName' | 'patternType'>;

export function expandAclIntent(intent: AclIntent): AclBindingView[] {
  const allow = (resource: ResourceOf, operations: readonly AclOperationView[]): AclBindingView[] =>
    operations.map((operation) => ({
      ...resource,
      principal: intent.principal,
      host: intent.host,
      operation,
      permission: 'ALLOW',
    }));
  const topic: ResourceOf = {
    resourceType: 'TOPIC',
    resourceName: intent.topic,
    patternType: intent.topicPattern,
  };
  if (intent.kind === 'consume') {
    // The schema makes a group mandatory for consume; a missing one here is a caller's bug.
    if (intent.group === undefined) throw new RangeError('a consume intent needs a group');
    return [
      ...allow(topic, CONSUME_TOPIC_OPERATIONS),
      ...allow(
        { resourceType: 'GROUP', resourceName: intent.group, patternType: intent.groupPattern },
        CONSUME_GROUP_OPERATIONS,
      ),
    ];
  }
  return [
    ...allow(topic, PRODUCE_TOPIC_OPERATIONS),
    ...(intent.transactionalId === undefined
      ? []
      : allow(
          {
            resourceType: 'TRANSACTIONAL_ID',
            resourceName: intent.transactionalId,
            patternType: intent.transactionalIdPattern,
          },
          TRANSACTIONAL_ID_OPERATIONS,
        )),
    ...(intent.idempotent
      ? allow({ resourceType: 'CLUSTER', resourceName: CLUSTER_RESOURCE_NAME, patternType: 'LITERAL' }, [
          'IDEMPOTENT_WRITE',
        ])
      : []),
  ];
}

/** A key equal for two bindings exactly when every field is equal. */
export function aclBindingKey(binding: AclBindingView): string {
  return JSON.stringify([
    binding.resourceType,
    binding.resourceName,
    binding.patternType,
    binding.principal,
    binding.host,
    binding.operation,
    binding.permission,
  ]);
}
