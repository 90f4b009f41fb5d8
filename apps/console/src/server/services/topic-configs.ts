import type { Admin, ConfigEntry } from '@weir/protocol';
import type { AlterConfigsInput, ConfigDiff, TopicConfigs } from '../api/schemas/topics';
import { requireTopicAction } from './permissions/topic-permissions';

type ConfigAdmin = Pick<Admin, 'describeTopics' | 'describeConfigs' | 'incrementalAlterConfigs'>;

function toEntry(entry: ConfigEntry): TopicConfigs['configs'][number] {
  return {
    name: entry.name,
    value: entry.value,
    source: entry.source,
    readOnly: entry.readOnly,
    isDefault: entry.isDefault,
    isSensitive: entry.isSensitive,
    synonyms: entry.synonyms.map((synonym) => ({ ...synonym })),
    type: entry.type,
    documentation: entry.documentation,
  };
}

export async function describeTopicConfigs(
  admin: Pick<Admin, 'describeConfigs'>,
  topic: string,
): Promise<TopicConfigs['configs']> {
  const [description] = await admin.describeConfigs([{ type: 'topic', name: topic }], {
    includeSynonyms: true,
    includeDocumentation: true,
  });
  return [...description!.configs].sort((left, right) => (left.name < right.name ? -1 : 1)).map(toEntry);
}

/**
 * Changes single keys. With `dryRun` the broker validates the change (validateOnly) and the answer
 * is the planned diff; otherwise the change is applied and the diff shows the values read back.
 */
export async function alterTopicConfigs(admin: ConfigAdmin, input: AlterConfigsInput): Promise<ConfigDiff[]> {
  await requireTopicAction(admin, input.topic, 'editConfigs');
  const before = new Map(
    (await describeTopicConfigs(admin, input.topic)).map((entry) => [entry.name, entry]),
  );
  for (const change of input.changes) {
    if (change.operation === 'set' && change.value === undefined) {
      throw new RangeError(`changes: "set" of ${change.name} needs a value`);
    }
  }
  await admin.incrementalAlterConfigs(
    [
      {
        type: 'topic',
        name: input.topic,
        changes: input.changes.map((change) => ({
          name: change.name,
          operation: change.operation,
          ...(change.value === undefined ? {} : { value: change.value }),
        })),
      },
    ],
    { validateOnly: input.dryRun },
  );
  const after = input.dryRun
    ? undefined
    : new Map((await describeTopicConfigs(admin, input.topic)).map((entry) => [entry.name, entry]));
  return input.changes.map((change) => {
    const old = before.get(change.name);
    const planned = change.operation === 'set' ? (change.value ?? null) : null;
    return {
      name: change.name,
      operation: change.operation,
      oldValue: old?.value ?? null,
      oldSource: old?.source ?? 'unknown',
      newValue: after === undefined ? planned : (after.get(change.name)?.value ?? null),
    };
  });
}
