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
    // Phase starts and ends run one after the other, so an end never overtakes its start.
    let phases = Promise.resolve();
    process.on('message', (message: ParentMessage) => {
      switch (message.kind) {
        case 'go':
          output.go?.();
          return;
        case 'phase-start':
          phases = phases.then(() => output.phase?.start(message.name));
          return;
        case 'phase-end':
          phases = phases.then(async () => {
            await send({ kind: 'phase', value: await output.phase?.end() });
          });
          return;
        case 'stop':
          output.stop().then(
            () => process.exit(0),
            () => process.exit(1),
          );
      }
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

interface Service {
  value: unknown;
  stop: () => Promise<void>;
  go?: () => void;
  phase?: { start(name: string): Promise<void>; end(): Promise<unknown> };
}

function isService(output: unknown): output is Service {
  return (
    typeof output === 'object' && output !== null && 'stop' in output && typeof output.stop === 'function'
  );
}
