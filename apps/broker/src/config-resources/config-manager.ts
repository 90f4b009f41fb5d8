import { ErrorCode, WeirError } from '@weir/protocol';
import type { BrokerConfig } from '../config/broker-config';
import { failureOf } from '../errors/item-result';
import type { ClusterView } from '../metadata/cluster-view';
import type { MetadataStore } from '../metadata/metadata-store';
import { TOPIC_CONFIGS } from '../topics/topic-configs';
import type { TopicManager } from '../topics/topic-manager';
import { topicNameProblem } from '../topics/topic-name';
import { BROKER_CONFIGS, brokerConfigForTopicConfig, builtInBrokerConfig } from './broker-config-entries';
import type {
  AlterConfigsResource,
  ConfigEntryDescription,
  ConfigResourceType,
  ConfigSynonym,
  ConfigValueType,
  DescribeConfigsResource,
  ResourceAlterResult,
  ResourceConfigsDescription,
} from './config-types';
import { TOPIC_CONFIG_VALUE_TYPES } from './config-types';
import {
  alteredBrokerOverrides,
  DYNAMIC_BROKER_CONFIG_FACTS,
  DYNAMIC_BROKER_CONFIGS,
  dynamicBrokerSynonyms,
} from './dynamic-broker-configs';
import { alteredTopicOverrides } from './topic-config-alteration';

/**
 * Config resources: what DescribeConfigs, AlterConfigs and IncrementalAlterConfigs need. Topic
 * configs are overrides kept in the metadata store and applied to live logs; broker configs come
 * from the YAML, environment and flags and are read-only at runtime, except the few dynamic ones
 * (dynamic-broker-configs.ts), kept in the metadata store per broker or as the cluster default.
 */
export class ConfigManager {
  /** Alterations run one at a time: each reads the current overrides and writes a new set. */
  #alterations: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly topics: TopicManager,
    private readonly view: ClusterView,
    private readonly config: BrokerConfig,
    private readonly store: Pick<MetadataStore, 'listBrokerConfigs' | 'setBrokerConfigs'>,
  ) {}

  async describeConfigs(
    resources: readonly DescribeConfigsResource[],
    options: { includeSynonyms: boolean; includeDocumentation: boolean },
  ): Promise<ResourceConfigsDescription[]> {
    return resources.map((resource) => {
      try {
        const wanted = resource.keys && resource.keys.length > 0 ? new Set(resource.keys) : null;
        const entries =
          requireType(resource.type) === 'topic'
            ? this.#topicEntries(resource.name)
            : this.#brokerEntries(resource.name);
        return {
          errorCode: ErrorCode.NONE,
          errorMessage: null,
          entries: entries
            .filter((entry) => wanted === null || wanted.has(entry.name))
            .map((entry) => ({
              ...entry,
              synonyms: options.includeSynonyms ? entry.synonyms : [],
              documentation: options.includeDocumentation ? entry.documentation : null,
            })),
        };
      } catch (error) {
        const { ok: _failed, ...failure } = failureOf(error);
        return { ...failure, entries: [] };
      }
    });
  }

  /**
   * Changes topic configs, or checks the change only with `validateOnly`. `incremental` false is
   * AlterConfigs (the listed configs replace all overrides); true is IncrementalAlterConfigs.
   */
  alterConfigs(
    resources: readonly AlterConfigsResource[],
    options: { validateOnly: boolean; incremental: boolean },
  ): Promise<ResourceAlterResult[]> {
    const run = this.#alterations.then(() => this.#alterAll(resources, options));
    this.#alterations = run.catch(() => undefined);
    return run;
  }

  async #alterAll(
    resources: readonly AlterConfigsResource[],
    options: { validateOnly: boolean; incremental: boolean },
  ): Promise<ResourceAlterResult[]> {
    const results: ResourceAlterResult[] = [];
    for (const resource of resources) {
      try {
        if (requireType(resource.type) === 'topic') await this.#alterTopic(resource, options);
        else await this.#alterBroker(resource, options);
        results.push({ errorCode: ErrorCode.NONE, errorMessage: null });
      } catch (error) {
        const { ok: _failed, ...failure } = failureOf(error);
        results.push(failure);
      }
    }
    return results;
  }

  async #alterTopic(
    resource: AlterConfigsResource,
    options: { validateOnly: boolean; incremental: boolean },
  ): Promise<void> {
    const record = this.#requireTopic(resource.name);
    const overrides = alteredTopicOverrides(record.configs, resource.configs, {
      incremental: options.incremental,
      broker: this.config,
    });
    if (options.validateOnly) this.topics.validateConfigs(resource.name, overrides);
    else await this.topics.setConfigs(resource.name, overrides);
  }

  async #alterBroker(
    resource: AlterConfigsResource,
    options: { validateOnly: boolean; incremental: boolean },
  ): Promise<void> {
    this.#requireThisBroker(resource.name);
    const current =
      this.store.listBrokerConfigs().find((scope) => scope.scope === resource.name)?.configs ?? {};
    const next = alteredBrokerOverrides(current, resource.configs, options.incremental);
    if (!options.validateOnly) await this.store.setBrokerConfigs(resource.name, next);
  }

  #topicEntries(name: string): ConfigEntryDescription[] {
    const record = this.#requireTopic(name);
    return TOPIC_CONFIGS.map((definition) => {
      const override = record.configs[definition.name];
      // The broker YAML may set the matching log.* value explicitly; this cannot tell, so the
      // fallback is always reported as DEFAULT_CONFIG under the broker config's name.
      const fallback: ConfigSynonym = {
        name: brokerConfigForTopicConfig(definition.name)?.name ?? definition.name,
        value: definition.defaultValue(this.config),
        source: 'DEFAULT_CONFIG',
      };
      const synonyms: ConfigSynonym[] =
        override === undefined
          ? [fallback]
          : [{ name: definition.name, value: override, source: 'DYNAMIC_TOPIC_CONFIG' }, fallback];
      return entryOf(definition.name, synonyms, {
        readOnly: false,
        sensitive: false,
        type: TOPIC_CONFIG_VALUE_TYPES[definition.type],
        documentation: definition.documentation,
      });
    });
  }

  #brokerEntries(name: string): ConfigEntryDescription[] {
    this.#requireThisBroker(name);
    const builtIn = builtInBrokerConfig();
    const statics = BROKER_CONFIGS.map((definition) => {
      const defaultSynonym: ConfigSynonym = {
        name: definition.name,
        value: definition.value(builtIn),
        source: 'DEFAULT_CONFIG',
      };
      // Weir keeps no record of which keys a file, variable or flag set, so a static config is
      // reported as set when its value differs from the built-in one, as the operator means it.
      const value = definition.value(this.config);
      const synonyms: ConfigSynonym[] =
        definition.source === 'DEFAULT_CONFIG' || value === defaultSynonym.value
          ? [defaultSynonym]
          : [{ name: definition.name, value, source: definition.source }, defaultSynonym];
      return entryOf(definition.name, synonyms, {
        readOnly: true,
        sensitive: definition.sensitive ?? false,
        type: definition.type,
        documentation: definition.documentation,
      });
    });
    const overrides = this.store.listBrokerConfigs();
    const dynamic = DYNAMIC_BROKER_CONFIGS.map((configName) =>
      entryOf(configName, dynamicBrokerSynonyms(overrides, this.config.nodeId, configName), {
        readOnly: false,
        sensitive: false,
        ...DYNAMIC_BROKER_CONFIG_FACTS[configName],
      }),
    );
    return [...statics, ...dynamic];
  }

  #requireTopic(name: string) {
    const nameProblem = topicNameProblem(name);
    if (nameProblem) throw new WeirError(ErrorCode.INVALID_TOPIC_EXCEPTION, { detail: nameProblem });
    const record = this.view.topic(name);
    if (!record) {
      throw new WeirError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, { detail: `topic "${name}" does not exist` });
    }
    return record;
  }

  /** A broker resource names this broker's node id, or is "" (Kafka's cluster-wide default). */
  #requireThisBroker(name: string): void {
    const nodeId = String(this.config.nodeId);
    if (name === '' || name === nodeId) return;
    throw new WeirError(ErrorCode.INVALID_REQUEST, {
      detail: `unknown broker "${name}": this is broker ${nodeId} (use "${nodeId}" or "" for the cluster default)`,
    });
  }
}

function requireType(type: ConfigResourceType | null): ConfigResourceType {
  if (type === null) {
    throw new WeirError(ErrorCode.INVALID_REQUEST, {
      detail: 'unsupported resource type: only topics (2) and brokers (4) have configs here',
    });
  }
  return type;
}

/** An entry whose value and source are those of its first (most specific) synonym. */
function entryOf(
  name: string,
  synonyms: ConfigSynonym[],
  options: {
    readOnly: boolean;
    sensitive: boolean;
    type: ConfigValueType;
    documentation: string;
  },
): ConfigEntryDescription {
  const shown = options.sensitive ? synonyms.map((synonym) => ({ ...synonym, value: null })) : synonyms;
  const effective = shown[0]!;
  return {
    name,
    value: effective.value,
    readOnly: options.readOnly,
    isDefault: effective.source === 'DEFAULT_CONFIG',
    source: effective.source,
    isSensitive: options.sensitive,
    synonyms: shown,
    type: options.type,
    documentation: options.documentation,
  };
}
