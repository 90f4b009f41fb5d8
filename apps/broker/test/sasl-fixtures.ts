import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Admin, Client, type SaslOptions, WeirError } from '@weir/protocol';
import type { RunningBroker } from '@weir/test-broker';
import type { GroupScheduler } from '../src/group/group-scheduler';

const run = promisify(execFile);

/** The bootstrap admin of the SASL test brokers. */
export const ADMIN = { username: 'admin', password: 'admin-bootstrap-secret-7d1c' } as const;

/** A broker config with a SASL_PLAINTEXT client listener and the bootstrap admin. */
export function saslBrokerConfig(authFailureDelayMs = 0) {
  return {
    listeners: { client: { securityProtocol: 'SASL_PLAINTEXT' as const } },
    security: { bootstrapAdmin: { ...ADMIN }, authFailureDelayMs },
  };
}

/** Lists topics through the SDK with `sasl`; the WeirError when authentication (or anything) fails. */
export async function listTopicsAs(running: RunningBroker, sasl: SaslOptions): Promise<string[] | WeirError> {
  const client = new Client({
    bootstrapServers: [running.bootstrap],
    clientId: 'sasl-test',
    sasl,
    retry: { maxAttempts: 1, initialBackoffMs: 10 },
  });
  try {
    return await new Admin(client).listTopics();
  } catch (error) {
    if (error instanceof WeirError) return error;
    throw error;
  } finally {
    await client.close();
  }
}

/** Runs kcat with SASL settings; resolves with the exit status and output instead of throwing. */
export async function kcatSasl(
  running: RunningBroker,
  sasl: { mechanism: string; username: string; password: string },
  args: readonly string[],
  extra: readonly string[] = [],
  input = '',
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const child = run(
      'kcat',
      [
        '-b',
        running.bootstrap,
        '-X',
        'broker.address.family=v4',
        '-X',
        'security.protocol=SASL_PLAINTEXT',
        // `extra` comes later, so a test can switch to SASL_SSL (librdkafka keeps the last value).
        '-X',
        `sasl.mechanisms=${sasl.mechanism}`,
        '-X',
        `sasl.username=${sasl.username}`,
        '-X',
        `sasl.password=${sasl.password}`,
        ...extra,
        ...args,
      ],
      { timeout: 30_000 },
    );
    child.child.stdin?.end(input);
    const { stdout, stderr } = await child;
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return {
      code: typeof failed.code === 'number' ? failed.code : -1,
      stdout: failed.stdout ?? '',
      stderr: failed.stderr ?? '',
    };
  }
}

/** A scheduler whose timers fire at once; the delays asked for are recorded in order. */
export function recordingScheduler(): { scheduler: GroupScheduler; delays: number[] } {
  const delays: number[] = [];
  return {
    delays,
    scheduler: {
      nowMs: () => Date.now(),
      schedule(delayMs, task) {
        delays.push(delayMs);
        setImmediate(task);
        return () => {};
      },
    },
  };
}
