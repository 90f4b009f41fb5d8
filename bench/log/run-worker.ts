import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { WorkerMessage } from './worker-messages';
import type { WorkerTaskName, WorkerTasks } from './worker-tasks';

const WORKER_PATH = fileURLToPath(new URL('./worker.ts', import.meta.url));

/** Children still running, so an aborted benchmark can kill exactly the ones it started. */
const liveWorkers = new Set<ChildProcess>();

export interface RunWorkerOptions {
  /** The child is SIGKILLed and the run fails after this long. */
  timeoutMs: number;
  /** SIGKILL the child as soon as it answers instead of letting it exit: a simulated crash. */
  killAfterResult: boolean;
}

/**
 * Runs one task of `worker-tasks.ts` in a forked Node process (same tsx loader, same flags) and
 * resolves with its output once the child is gone.
 */
export function runWorker<Name extends WorkerTaskName>(
  name: Name,
  input: Parameters<WorkerTasks[Name]>[0],
  options: RunWorkerOptions,
): Promise<Awaited<ReturnType<WorkerTasks[Name]>>> {
  const mode = options.killAfterResult ? 'hold' : 'exit';
  const child = fork(WORKER_PATH, [name, JSON.stringify(input), mode], { stdio: 'inherit' });
  liveWorkers.add(child);
  return new Promise((resolve, reject) => {
    let outcome: WorkerMessage | undefined;
    const timer = setTimeout(() => {
      outcome ??= { kind: 'error', message: `worker ${name} timed out after ${options.timeoutMs} ms` };
      child.kill('SIGKILL');
    }, options.timeoutMs);
    child.on('message', (message: WorkerMessage) => {
      outcome ??= message;
      if (options.killAfterResult) child.kill('SIGKILL');
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      liveWorkers.delete(child);
      if (outcome?.kind === 'result') {
        resolve(outcome.value as Awaited<ReturnType<WorkerTasks[Name]>>);
      } else {
        const reason = outcome?.message ?? `exited with ${signal ?? code} before answering`;
        reject(new Error(`worker ${name}: ${reason}`));
      }
    });
  });
}

/** SIGKILLs every worker this process started that is still running. */
export function killLiveWorkers(): void {
  for (const child of liveWorkers) child.kill('SIGKILL');
}
