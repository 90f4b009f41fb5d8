import type { Writable } from 'node:stream';
import {
  type Admin,
  type ClientQuotaEntity,
  type ClientQuotaFilterComponent,
  describeQuotaEntity,
} from '@weir/protocol';
import { formatTable } from './table';
import { UsageError } from './usage-error';

/** How Kafka's tools name the default entity on the command line. */
const DEFAULT_NAME = '<default>';

/** The entity flags of every `weir quota` command. */
export interface QuotaEntityFlags {
  user?: string;
  clientId?: string;
}

export interface QuotaIo {
  stdout: Writable;
  stderr: Writable;
}

/** The entity the flags name: `<default>` is the default entity; at least one flag is needed. */
function entityOf(flags: QuotaEntityFlags): ClientQuotaEntity {
  const entity: ClientQuotaEntity = {};
  if (flags.user !== undefined) entity.user = flags.user === DEFAULT_NAME ? null : flags.user;
  if (flags.clientId !== undefined) entity.clientId = flags.clientId === DEFAULT_NAME ? null : flags.clientId;
  if (entity.user === undefined && entity.clientId === undefined) {
    throw new UsageError(`name the entity: --user and/or --client-id (${DEFAULT_NAME} for the default)`);
  }
  return entity;
}

/** `key=value` as given to `--quota`; the broker checks the key and the value. */
export function parseQuotaPair(text: string): [string, number] {
  const separator = text.indexOf('=');
  const value = Number(text.slice(separator + 1));
  if (separator <= 0 || text.slice(separator + 1).trim() === '' || !Number.isFinite(value)) {
    throw new UsageError(`--quota takes key=number, e.g. producer_byte_rate=1048576, not "${text}"`);
  }
  return [text.slice(0, separator), value];
}

/** `weir quota list`: every quota, or those of the entity types the flags name (exact or default). */
export async function quotaListCommand(
  admin: Admin,
  flags: QuotaEntityFlags,
  io: QuotaIo,
): Promise<undefined> {
  const components: ClientQuotaFilterComponent[] = [];
  const component = (entityType: 'user' | 'client-id', name: string | undefined) => {
    if (name !== undefined) {
      components.push({ entityType, match: name === DEFAULT_NAME ? 'default' : { exact: name } });
    }
  };
  component('user', flags.user);
  component('client-id', flags.clientId);
  const entries = await admin.describeClientQuotas(components);
  if (entries.length === 0) {
    io.stderr.write('No client quotas match.\n');
    return undefined;
  }
  io.stdout.write(
    formatTable(
      ['ENTITY', 'QUOTA', 'VALUE'],
      entries.flatMap((entry) =>
        Object.entries(entry.values).map(([key, value]) => [
          describeQuotaEntity(entry.entity),
          key,
          String(value),
        ]),
      ),
    ),
  );
  return undefined;
}

/** `weir quota set`: sets the given keys of one entity. */
export async function quotaSetCommand(
  admin: Admin,
  flags: QuotaEntityFlags & { quota: string[]; validateOnly: boolean },
  io: QuotaIo,
): Promise<undefined> {
  const entity = entityOf(flags);
  if (flags.quota.length === 0) throw new UsageError('give at least one --quota key=value');
  const set = Object.fromEntries(flags.quota.map(parseQuotaPair));
  await admin.alterClientQuotas([{ entity, set }], { validateOnly: flags.validateOnly });
  io.stderr.write(
    `${flags.validateOnly ? 'Valid, not applied' : 'Set'}: ${describeQuotaEntity(entity)} ${Object.entries(
      set,
    )
      .map(([key, value]) => `${key}=${value}`)
      .join(' ')}\n`,
  );
  return undefined;
}

/** `weir quota delete`: removes the given keys of one entity, or all of them. */
export async function quotaDeleteCommand(
  admin: Admin,
  flags: QuotaEntityFlags & { key: string[] },
  io: QuotaIo,
): Promise<undefined> {
  const entity = entityOf(flags);
  let keys = flags.key;
  if (keys.length === 0) {
    const exact: ClientQuotaFilterComponent[] = [];
    if (entity.user !== undefined) {
      exact.push({ entityType: 'user', match: entity.user === null ? 'default' : { exact: entity.user } });
    }
    if (entity.clientId !== undefined) {
      exact.push({
        entityType: 'client-id',
        match: entity.clientId === null ? 'default' : { exact: entity.clientId },
      });
    }
    const [stored] = await admin.describeClientQuotas(exact, { strict: true });
    keys = Object.keys(stored?.values ?? {});
    if (keys.length === 0) {
      io.stderr.write(`No quotas are set for ${describeQuotaEntity(entity)}.\n`);
      return undefined;
    }
  }
  await admin.alterClientQuotas([{ entity, remove: keys }]);
  io.stderr.write(`Removed from ${describeQuotaEntity(entity)}: ${keys.join(', ')}\n`);
  return undefined;
}
