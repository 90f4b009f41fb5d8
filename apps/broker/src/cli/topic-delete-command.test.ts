import { PassThrough, Writable } from 'node:stream';
import type { Admin } from '@weir/protocol';
import { describe, expect, it } from 'vitest';
import { topicDeleteCommand } from './topic-delete-command';
import { UsageError } from './usage-error';

/** An Admin that only records deletions: the confirmation logic is what is under test. */
function fakeAdmin() {
  const deleted: string[] = [];
  const admin = {
    describeTopics: async (names: string[]) =>
      names.map((name) => ({ name, isInternal: false, partitions: [] })),
    deleteTopics: async (names: string[]) => {
      deleted.push(...names);
    },
  } as unknown as Admin;
  return { admin, deleted };
}

function capture() {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return { stream, text: () => text };
}

/** A stdin that claims to be a terminal and delivers `typed`. */
function terminalInput(typed: string) {
  const input = Object.assign(new PassThrough(), { isTTY: true });
  input.end(typed);
  return input;
}

describe('topic delete confirmation', () => {
  // readline treats an input with isTTY as a terminal and writes cursor codes; the prompt is still there.
  it('deletes once the name is typed on a terminal', async () => {
    const { admin, deleted } = fakeAdmin();
    const stderr = capture();
    const stdout = capture();
    const code = await topicDeleteCommand(
      admin,
      { name: 'orders', yes: false },
      { stdin: terminalInput('orders\n'), stdout: stdout.stream, stderr: stderr.stream },
    );
    expect(code).toBeUndefined();
    expect(deleted).toEqual(['orders']);
    expect(stderr.text()).toContain('Type the topic name to confirm');
    expect(stdout.text()).toBe('Deleted topic "orders".\n');
  });

  it('keeps the topic and exits 1 when another name is typed, or input ends', async () => {
    for (const typed of ['order\n', '']) {
      const { admin, deleted } = fakeAdmin();
      const stderr = capture();
      const code = await topicDeleteCommand(
        admin,
        { name: 'orders', yes: false },
        { stdin: terminalInput(typed), stdout: capture().stream, stderr: stderr.stream },
      );
      expect(code).toBe(1);
      expect(deleted).toEqual([]);
      expect(stderr.text()).toContain('Topic "orders" was not deleted.');
    }
  });

  it('refuses without --yes when stdin is not a terminal, and deletes with it', async () => {
    const { admin, deleted } = fakeAdmin();
    const io = { stdin: new PassThrough(), stdout: capture().stream, stderr: capture().stream };
    await expect(topicDeleteCommand(admin, { name: 'orders', yes: false }, io)).rejects.toThrow(UsageError);
    expect(deleted).toEqual([]);
    await topicDeleteCommand(admin, { name: 'orders', yes: true }, io);
    expect(deleted).toEqual(['orders']);
  });
});
