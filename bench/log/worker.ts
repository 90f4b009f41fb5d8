import type { WorkerMessage } from './worker-messages';
import { type WorkerTaskName, workerTasks } from './worker-tasks';

/**
 * Entry point of a benchmark child process (forked by `runWorker`): runs the task named in argv
 * with the JSON input after it and sends the outcome over IPC. With "hold" it stays alive after
 * answering, so the parent can SIGKILL it: that is how the benchmark crashes a broker.
 */
const [taskName, inputJson, mode] = process.argv.slice(2);

function send(message: WorkerMessage, then: () => void): void {
  if (!process.send) throw new Error('the log benchmark worker must be forked with an IPC channel');
  process.send(message, undefined, undefined, then);
}

// A parent that died without killing us must not leave us behind.
process.on('disconnect', () => process.exit(1));

try {
  if (!taskName || !(taskName in workerTasks)) throw new Error(`unknown worker task ${taskName}`);
  const task = workerTasks[taskName as WorkerTaskName] as (input: unknown) => Promise<unknown>;
  const value = await task(JSON.parse(inputJson ?? '{}'));
  send({ kind: 'result', value }, () => {
    // Exiting at once keeps any timer the task left behind from delaying the parent.
    if (mode !== 'hold') process.exit(0);
  });
  if (mode === 'hold') setInterval(() => {}, 60_000);
} catch (error) {
  send(
    { kind: 'error', message: error instanceof Error ? (error.stack ?? error.message) : String(error) },
    () => process.exit(1),
  );
}
