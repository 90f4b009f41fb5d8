import type { Assignment } from './assignment';
import type { SubscribedTopic } from './consumer-group';
import { rangeAssignor } from './range-assignor';
import { uniformAssignor } from './uniform-assignor';

/** What a server-side assignor is given: every member's subscription and the topics that exist. */
export interface AssignmentInput {
  readonly members: readonly {
    readonly memberId: string;
    readonly instanceId: string | null;
    readonly subscribedTopicNames: readonly string[];
  }[];
  /** Subscribed topic name → its id and partition count (only topics that exist). */
  readonly topics: ReadonlyMap<string, SubscribedTopic>;
  /** The current target assignment, member by member, for assignors that keep partitions in place. */
  readonly currentTarget: ReadonlyMap<string, Assignment>;
}

/** A server-side assignor: the target assignment of every member (members without partitions may be absent). */
export interface ServerAssignor {
  readonly name: string;
  assign(input: AssignmentInput): Map<string, Assignment>;
}

/**
 * The assignors the coordinator offers (Kafka's `group.consumer.assignors` default): the first is
 * the default, used when no member asks for one.
 */
export const SERVER_ASSIGNORS: readonly ServerAssignor[] = [uniformAssignor, rangeAssignor];

export const DEFAULT_ASSIGNOR: ServerAssignor = uniformAssignor;

export function serverAssignor(name: string): ServerAssignor | undefined {
  return SERVER_ASSIGNORS.find((assignor) => assignor.name === name);
}

/**
 * The assignor the group uses: the one most members ask for (ties go to the name that sorts
 * first, so the choice is deterministic), else the default, as Kafka chooses.
 */
export function preferredAssignor(members: Iterable<{ serverAssignor: string | null }>): ServerAssignor {
  const votes = new Map<string, number>();
  for (const member of members) {
    if (member.serverAssignor !== null)
      votes.set(member.serverAssignor, (votes.get(member.serverAssignor) ?? 0) + 1);
  }
  let chosen: string | undefined;
  for (const [name, count] of [...votes].sort(([left], [right]) => (left < right ? -1 : 1))) {
    if (chosen === undefined || count > votes.get(chosen)!) chosen = name;
  }
  return (chosen !== undefined && serverAssignor(chosen)) || DEFAULT_ASSIGNOR;
}
