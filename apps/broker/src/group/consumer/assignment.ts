/**
 * Partitions by topic id, the form consumer-protocol (KIP-848) assignments take on the wire and in
 * `__consumer_offsets`. Values are never changed once built: an update builds a new assignment, so
 * a snapshot of a group can share them.
 */
export type Assignment = ReadonlyMap<string, ReadonlySet<number>>;

export const EMPTY_ASSIGNMENT: Assignment = new Map();

/** An assignment from its wire form; repeated topics merge, topics without partitions are dropped. */
export function assignmentFromWire(
  topicPartitions: readonly { topicId: string; partitions: readonly number[] }[],
): Assignment {
  const byTopic = new Map<string, Set<number>>();
  for (const { topicId, partitions } of topicPartitions) {
    if (partitions.length === 0) continue;
    let set = byTopic.get(topicId);
    if (!set) {
      set = new Set();
      byTopic.set(topicId, set);
    }
    for (const partition of partitions) set.add(partition);
  }
  return byTopic;
}

/** The wire form: topics in id order, partitions ascending, so equal assignments encode alike. */
export function assignmentToWire(assignment: Assignment): { topicId: string; partitions: number[] }[] {
  return [...assignment.entries()]
    .sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0))
    .map(([topicId, partitions]) => ({ topicId, partitions: [...partitions].sort((a, b) => a - b) }));
}

export function sameAssignment(left: Assignment, right: Assignment): boolean {
  if (left.size !== right.size) return false;
  for (const [topicId, partitions] of left) {
    const other = right.get(topicId);
    if (!other || other.size !== partitions.size) return false;
    for (const partition of partitions) if (!other.has(partition)) return false;
  }
  return true;
}

/** Whether every partition of `part` is in `whole`. */
export function isSubsetOf(part: Assignment, whole: Assignment): boolean {
  for (const [topicId, partitions] of part) {
    const other = whole.get(topicId);
    for (const partition of partitions) if (!other?.has(partition)) return false;
  }
  return true;
}

/** Whether the two assignments share a partition. */
export function overlaps(left: Assignment, right: Assignment): boolean {
  for (const [topicId, partitions] of left) {
    const other = right.get(topicId);
    if (!other) continue;
    for (const partition of partitions) if (other.has(partition)) return true;
  }
  return false;
}

export function partitionCount(assignment: Assignment): number {
  let count = 0;
  for (const partitions of assignment.values()) count += partitions.size;
  return count;
}

/** Builds an assignment one partition at a time. */
export class AssignmentBuilder {
  readonly #byTopic = new Map<string, Set<number>>();

  add(topicId: string, partition: number): this {
    let set = this.#byTopic.get(topicId);
    if (!set) {
      set = new Set();
      this.#byTopic.set(topicId, set);
    }
    set.add(partition);
    return this;
  }

  delete(topicId: string, partition: number): this {
    const set = this.#byTopic.get(topicId);
    set?.delete(partition);
    if (set?.size === 0) this.#byTopic.delete(topicId);
    return this;
  }

  has(topicId: string, partition: number): boolean {
    return this.#byTopic.get(topicId)?.has(partition) ?? false;
  }

  get size(): number {
    let count = 0;
    for (const partitions of this.#byTopic.values()) count += partitions.size;
    return count;
  }

  *entries(): Generator<[topicId: string, partition: number]> {
    for (const [topicId, partitions] of this.#byTopic)
      for (const partition of partitions) yield [topicId, partition];
  }

  build(): Assignment {
    return new Map([...this.#byTopic].map(([topicId, partitions]) => [topicId, new Set(partitions)]));
  }
}
