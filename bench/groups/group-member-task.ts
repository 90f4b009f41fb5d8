import { Client, GroupConsumer } from '@weir/protocol';

export interface GroupMemberInput {
  bootstrap: string;
  groupId: string;
  topic: string;
  heartbeatIntervalMs: number;
  sessionTimeoutMs: number;
}

/**
 * One consumer-group member in its own process, as members run in production: it connects and
 * loads metadata first, joins and consumes only when the parent says go, and commits every 100 ms
 * so the parent can see from the group's lag when the topic has been read.
 */
export async function groupMember(input: GroupMemberInput) {
  const client = new Client({ bootstrapServers: [input.bootstrap] });
  await client.topicsMetadata([input.topic]);
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
