import { TRPCError } from '@trpc/server';
import type { AclOperation, Admin } from '@weir/protocol';
import { type AclPolicyView, withAcls } from './acl-policy';
import { type ActionPermission, ALLOWED, denied, requireAllowed } from './action-permission';

/** What the policy knows about a topic. */
export interface TopicFacts {
  readonly name: string;
  readonly internal: boolean;
}

export type TopicAction = 'delete' | 'deleteRecords' | 'addPartitions' | 'editConfigs' | 'produce';

export type TopicAllowedActions = Record<TopicAction, ActionPermission>;

const INTERNAL =
  'is an internal topic: it holds the broker’s own state (group offsets, transactions), which the broker manages.';

/**
 * The topic policy, narrowed in login mode by what the principal's ACLs allow. Internal topics are read-only from the console: deleting them, trimming their
 * records, re-partitioning them (a group's coordinator is chosen by hashing over their partition
 * count) or writing into them would corrupt the state they hold. Their configs stay editable, as
 * in Kafka.
 */
export function topicAllowedActions(topic: TopicFacts, acl?: AclPolicyView | null): TopicAllowedActions {
  const verdicts = topicPolicy(topic);
  if (acl === undefined || acl === null) return verdicts;
  const narrowed = {} as Record<TopicAction, ActionPermission>;
  for (const action of Object.keys(verdicts) as TopicAction[]) {
    narrowed[action] = withAcls(verdicts[action], acl, [[TOPIC_OPERATION[action], 'TOPIC', topic.name]]);
  }
  return narrowed;
}

/**
 * The ACL operation each action needs on the topic (as the broker checks it): DeleteTopics and
 * DeleteRecords DELETE, CreatePartitions ALTER, IncrementalAlterConfigs ALTER_CONFIGS, Produce WRITE.
 */
const TOPIC_OPERATION: Record<TopicAction, AclOperation> = {
  delete: 'DELETE',
  deleteRecords: 'DELETE',
  addPartitions: 'ALTER',
  editConfigs: 'ALTER_CONFIGS',
  produce: 'WRITE',
};

function topicPolicy(topic: TopicFacts): TopicAllowedActions {
  if (!topic.internal) {
    return {
      delete: ALLOWED,
      deleteRecords: ALLOWED,
      addPartitions: ALLOWED,
      editConfigs: ALLOWED,
      produce: ALLOWED,
    };
  }
  const because = `${topic.name} ${INTERNAL}`;
  return {
    delete: denied(because),
    deleteRecords: denied(because),
    addPartitions: denied(because),
    editConfigs: ALLOWED,
    produce: denied(because),
  };
}

/**
 * Refuses a mutation of a topic when the policy denies it, reading the topic first. A gateway
 * policy is not an authorization failure at the broker, so the refusal is FORBIDDEN without a
 * Kafka code. An unknown topic fails the read with the broker's NOT_FOUND.
 */
export async function requireTopicAction(
  admin: Pick<Admin, 'describeTopics'>,
  topic: string,
  action: TopicAction,
): Promise<void> {
  const [description] = await admin.describeTopics([topic]);
  const facts = { name: topic, internal: description?.isInternal ?? false };
  requireAllowed(
    topicAllowedActions(facts)[action],
    (reason) => new TRPCError({ code: 'FORBIDDEN', message: reason }),
  );
}
