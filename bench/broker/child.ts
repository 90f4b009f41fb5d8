import type { ChildMessage, ParentMessage } from './child-messages';
import { type ChildTaskName, childTasks } from './child-tasks';

/**
 * Entry point of a broker-benchmark child process (forked by `run-child.ts`): runs the task named
 * in argv with the JSON input after it and sends the outcome over IPC. A task that returns a
 * `stop` function is a service: it keeps running after answering until the parent says stop.
 */
const [taskName, inputJson] = process.argv.slice(2);

function send(message: ChildMessage): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send) throw new Error('the broker benchmark child must be forked with an IPC channel');
    process.send(message, undefined, undefined, () => resolve());
  });
}

// A parent that died without stopping us must not leave us behind.
process.on('disconnect', () => process.exit(1));

try {
  if (!taskName || !(taskName in childTasks)) throw new Error(`unknown child task ${taskName}`);
  const task = childTasks[taskName as ChildTaskName] as (input: unknown) => Promise<unknown>;
  const output = await task(JSON.parse(inputJson ?? '{}'));
  if (isService(output)) {
    process.on('message', (message: ParentMessage) => {
      if (message.kind === 'go') {
        output.go?.();
        return;
      }
      output.stop().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
    await send({ kind: 'result', value: output.value });
  } else {
    await send({ kind: 'result', value: output });
    // Exiting at once keeps any timer the task left behind from delaying the parent.
    process.exit(0);
  }
} catch (error) {
  await send({
    kind: 'error',
    message: error instanceof Error ? (error.stack ?? error.message) : String(error),
  });
  process.exit(1);
}

function isService(
  output: unknown,
): output is { value: unknown; stop: () => Promise<void>; go?: () => void } {
  return (
    typeof output === 'object' && output !== null && 'stop' in output && typeof output.stop === 'function'
  );
}
