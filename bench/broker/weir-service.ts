import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Admin, Client } from '@weir/protocol';
import {
  CPU_PROFILE_DIR,
  FLUSH_MS,
  PARTITION_COUNT,
  SERVER_START_TIMEOUT_MS,
  SERVER_STOP_TIMEOUT_MS,
} from './bench-config';
import { type ServiceChild, startServiceChild } from './run-child';

/** A Weir broker in its own process under the run's directory, with an admin client for setup. */
export interface WeirBroker {
  service: ServiceChild<{ port: number }>;
  bootstrap: string;
  client: Client;
  admin: Admin;
}

export async function startWeir(root: string, name: string): Promise<WeirBroker> {
  const dataDir = join(root, name);
  await mkdir(dataDir, { recursive: true });
  const service = await startServiceChild(
    'weir-broker',
    {
      dataDir,
      flushMs: FLUSH_MS,
      ...(CPU_PROFILE_DIR === undefined ? {} : { cpuProfileDir: CPU_PROFILE_DIR }),
    },
    SERVER_START_TIMEOUT_MS,
  );
  const bootstrap = `127.0.0.1:${service.value.port}`;
  const client = new Client({ bootstrapServers: [bootstrap] });
  return { service, bootstrap, client, admin: new Admin(client) };
}

/** Closes the admin client, stops the broker and removes its data directory. */
export async function stopWeir(root: string, name: string, weir: WeirBroker): Promise<void> {
  await weir.client.close();
  await weir.service.stop(SERVER_STOP_TIMEOUT_MS);
  await rm(join(root, name), { recursive: true, force: true });
}

export async function createTopics(weir: Pick<WeirBroker, 'admin'>, names: readonly string[]): Promise<void> {
  await weir.admin.createTopics(names.map((name) => ({ name, partitions: PARTITION_COUNT })));
}

/** Fails the run unless the topic holds exactly `count` records: a fast but lossy run is no result. */
export async function verifyCount(
  weir: Pick<WeirBroker, 'admin'>,
  topic: string,
  count: number,
): Promise<void> {
  const offsets = await weir.admin.topicOffsets(topic);
  const stored = offsets.reduce(
    (total, partition) => total + Number(partition.latest - partition.earliest),
    0,
  );
  if (stored !== count) throw new Error(`${topic} holds ${stored} records, ${count} were produced`);
}
