import type { Readable, Writable } from 'node:stream';
import type { Admin } from '@weir/protocol';
import { confirmByTyping } from './confirm-by-typing';
import { UsageError } from './usage-error';

/** The user did not confirm, so nothing was done: a failure, so scripts do not carry on as if deleted. */
const EXIT_NOT_CONFIRMED = 1;

export interface TopicDeleteDeps {
  stdin: Readable & { isTTY?: boolean };
  stdout: Writable;
  stderr: Writable;
}

/**
 * `weir topic delete`: deleting a topic loses its data, so without `--yes` it asks the user to type
 * the name on a terminal, and refuses outright when nobody can be asked (a script or a pipe).
 */
export async function topicDeleteCommand(
  admin: Admin,
  options: { name: string; yes: boolean },
  deps: TopicDeleteDeps,
): Promise<number | undefined> {
  if (!options.yes) {
    if (deps.stdin.isTTY !== true) {
      throw new UsageError(
        `refusing to delete topic "${options.name}" without --yes (stdin is not a terminal to confirm on)`,
      );
    }
    // Fails here with UNKNOWN_TOPIC_OR_PARTITION rather than after asking about a topic that is not there.
    await admin.describeTopics([options.name]);
    const confirmed = await confirmByTyping(
      `Deleting topic "${options.name}" deletes all its records. Type the topic name to confirm: `,
      options.name,
      { input: deps.stdin, output: deps.stderr },
    );
    if (!confirmed) {
      deps.stderr.write(`Topic "${options.name}" was not deleted.\n`);
      return EXIT_NOT_CONFIRMED;
    }
  }
  await admin.deleteTopics([options.name]);
  deps.stdout.write(`Deleted topic "${options.name}".\n`);
}
