import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { PhaseStats } from './broker-phase-probe';
import type { ChildMessage, ParentMessage } from './child-messages';
import type { ChildTaskName, ChildTasks } from './child-tasks';

const CHILD_PATH = fileURLToPath(new URL('./child.ts', import.meta.url));

/** Children still running, so an aborted benchmark can kill exactly the ones it started. */
const liveChildren = new Set<ChildProcess>();

type Output<Name extends ChildTaskName> = Awaited<ReturnType<ChildTasks[Name]>>;
/** What a service task answers once it is up (the `value` beside its `stop`). */
type ServiceValue<Name extends ChildTaskName> = Output<Name> extends { value: infer Value } ? Value : never;

export interface RunChildOptions {
  /** The child is SIGKILLed and the run fails after this long. */
  timeoutMs: number;
  /** Called when the child marks the start or end of its timed phase. */
  onMark?: (label: 'start' | 'end') => void;
}

/** A task child that keeps running after it answered (a broker): its pid and how to stop it. */
export interface ServiceChild<Value> {
  readonly pid: number;
  readonly value: Value;
  /** Asks the child to shut down gracefully; SIGKILLs it after `timeoutMs`. */
  stop(timeoutMs: number): Promise<void>;
  /** Tells a service that warmed up to start its timed work. */
  go(): void;
  /** Tells the service a client's timed phase starts now (`name` names its CPU profile). */
  phaseStart(name: string): void;
  /** Tells the service the phase ended; resolves with what it measured of itself over it. */
  phaseEnd(): Promise<PhaseStats | undefined>;
}

function start(name: string, input: unknown): ChildProcess {
  const child = fork(CHILD_PATH, [name, JSON.stringify(input)], { stdio: 'inherit' });
  liveChildren.add(child);
  child.on('exit', () => liveChildren.delete(child));
  return child;
}

/**
 * Runs one task of `child-tasks.ts` in a forked Node process (same tsx loader) and resolves with
 * its output once the child is gone. The child measures its own CPU, so client and server CPU are
 * reported separately.
 */
export function runChild<Name extends ChildTaskName>(
  name: Name,
  input: Parameters<ChildTasks[Name]>[0],
  options: RunChildOptions,
): Promise<Output<Name>> {
  const child = start(name, input);
  return new Promise((resolve, reject) => {
    let outcome: ChildMessage | undefined;
    const timer = setTimeout(() => {
      outcome ??= { kind: 'error', message: `timed out after ${options.timeoutMs} ms` };
      child.kill('SIGKILL');
    }, options.timeoutMs);
    child.on('message', (message: ChildMessage) => {
      if (message.kind === 'mark') options.onMark?.(message.label);
      else outcome ??= message;
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (outcome?.kind === 'result') resolve(outcome.value as Output<Name>);
      else {
        const reason = outcome?.kind === 'error' ? outcome.message : `exited with ${signal ?? code}`;
        reject(new Error(`${name}: ${reason}`));
      }
    });
  });
}

/**
 * Starts a service task (one that answers once it is up and then runs until told to stop) and
 * resolves with its answer and a handle to stop it.
 */
export function startServiceChild<Name extends ChildTaskName>(
  name: Name,
  input: Parameters<ChildTasks[Name]>[0],
  startTimeoutMs: number,
): Promise<ServiceChild<ServiceValue<Name>>> {
  const child = start(name, input);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // Answers to phase-end arrive in the order they were asked for.
  const phaseAnswers: ((stats: PhaseStats | undefined) => void)[] = [];
  // A service that died mid-phase measured nothing; its callers must not wait for ever.
  child.once('exit', () => {
    for (const answer of phaseAnswers.splice(0)) answer(undefined);
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${name} did not start within ${startTimeoutMs} ms`));
    }, startTimeoutMs);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with ${signal ?? code} before it was up`));
    });
    child.on('message', (message: ChildMessage) => {
      if (message.kind === 'phase') {
        phaseAnswers.shift()?.(message.value as PhaseStats | undefined);
      } else if (message.kind === 'error') {
        clearTimeout(timer);
        reject(new Error(`${name}: ${message.message}`));
      } else if (message.kind === 'result') {
        clearTimeout(timer);
        resolve({
          pid: child.pid!,
          value: message.value as ServiceValue<Name>,
          go() {
            child.send({ kind: 'go' } satisfies ParentMessage);
          },
          phaseStart(name: string) {
            child.send({ kind: 'phase-start', name } satisfies ParentMessage);
          },
          phaseEnd() {
            return new Promise<PhaseStats | undefined>((answer, fail) => {
              if (child.exitCode !== null || child.signalCode !== null) {
                fail(new Error(`${name} exited before the phase ended`));
                return;
              }
              phaseAnswers.push(answer);
              child.send({ kind: 'phase-end' } satisfies ParentMessage);
            });
          },
          async stop(timeoutMs: number) {
            if (child.exitCode !== null || child.signalCode !== null) return;
            child.send({ kind: 'stop' } satisfies ParentMessage);
            const killer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
            await exited;
            clearTimeout(killer);
          },
        });
      }
    });
  });
}

/** SIGKILLs every child this process started that is still running. */
export function killLiveChildren(): void {
  for (const child of liveChildren) child.kill('SIGKILL');
}
