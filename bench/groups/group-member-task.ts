import { Client, Consumer, GroupConsumer } from '@weir/protocol';

export interface GroupMemberInput {
  bootstrap: string;
  groupId: string;
  topic: string;
  heartbeatIntervalMs: number;
  sessionTimeoutMs: number;
}

/** Records read outside the group before go, so the timed run measures warmed code (see below). */
const WARM_UP_RECORDS = 50_000;

/**
 * One consumer-group member in its own process, as members run in production: it connects and
 * loads metadata first, joins and consumes only when the parent says go, and commits every 100 ms
 * so the parent can see from the group's lag when the topic has been read.
 *
 * Before go it reads the first records of partition 0 with a plain (group-less) consumer and throws
 * them away: a fresh process otherwise spends the first 100-200 ms of the timed run compiling the
 * fetch and decode paths and growing its heap, and four processes doing that at once on two cores
 * would be measured as consumption. Every member count gets the same warm-up, so the comparison
 * is between steady states.
 */
export async function groupMember(input: GroupMemberInput) {
  const client = new Client({ bootstrapServers: [input.bootstrap] });
  await client.topicsMetadata([input.topic]);
  await warmUp(client, input.topic);
  const member = new GroupConsumer(client, {
    groupId: input.groupId,
    sessionTimeoutMs: input.sessionTimeoutMs,
    heartbeatIntervalMs: input.heartbeatIntervalMs,
    autoOffsetReset: 'earliest',
    autoCommitIntervalMs: 100,
    maxWaitMs: 200,
  });
  let records = 0;
  let loop: Promise<void> | undefined;
  return {
    value: { pid: process.pid },
    go() {
      member.subscribe([input.topic]);
      loop = (async () => {
        while (member.state !== 'closing' && member.state !== 'closed')
          records += (await member.poll({ maxWaitMs: 200 })).length;
      })();
    },
    async stop() {
      await member.close();
      await loop;
      await client.close();
      process.stderr.write(`member ${process.pid} read ${records} records\n`);
    },
  };
}

async function warmUp(client: Client, topic: string): Promise<void> {
  const consumer = new Consumer(client, { maxWaitMs: 200, isolationLevel: 'read_committed' });
  consumer.assign([{ topic, partition: 0, offset: 0n }]);
  let read = 0;
  try {
    while (read < WARM_UP_RECORDS) {
      const records = await consumer.poll();
      if (records.length === 0) break;
      read += records.length;
    }
  } finally {
    await consumer.close();
  }
}
