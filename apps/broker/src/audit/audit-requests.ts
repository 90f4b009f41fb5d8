import {
  ACL_OPERATION_IDS,
  ACL_PATTERN_TYPE_IDS,
  ACL_PERMISSION_IDS,
  ACL_RESOURCE_TYPE_IDS,
  AlterConfigs,
  type ApiSchema,
  aclNameOf,
  CreateAcls,
  CreatePartitions,
  CreateTopics,
  DeleteAcls,
  DeleteGroups,
  DeleteRecords,
  DeleteTopics,
  ErrorCode,
  IncrementalAlterConfigs,
  OffsetCommit,
  OffsetDelete,
  type RequestOf,
  type ResponseInputOf,
  WeirAbortTransaction,
  WeirDeleteUser,
  WeirUpsertUser,
} from '@weir/protocol';
import type { AuditAction, AuditResourceType, NewAuditEvent } from './audit-event';

/** One resource's part of an audited request, before the request's facts are added. */
export interface AuditedItem {
  action: AuditAction;
  resourceType: AuditResourceType;
  resourceName: string;
  input: Record<string, unknown>;
  outcomeCode: number;
  outcomeMessage?: string | null | undefined;
}

/** Who sent the request, from where and when. */
export interface AuditedRequestFacts {
  atMs: number;
  principal: string;
  clientId: string;
  clientHost: string;
  listener: string;
}

type Extractor<A extends ApiSchema> = (request: RequestOf<A>, response: ResponseInputOf<A>) => AuditedItem[];

/** An input summary's longest string value; longer ones are cut, so one event stays small. */
const MAX_INPUT_STRING_CHARS = 512;
/** The most list entries (offsets, configs, bindings) one event's input names. */
const MAX_INPUT_ENTRIES = 100;

/** Kafka's ConfigResource types: TOPIC 2, BROKER 4, BROKER_LOGGER 8. */
function configResourceType(id: number): AuditResourceType {
  return id === 2 ? 'topic' : 'broker';
}

/** The IncrementalAlterConfigs operations by id. */
const CONFIG_OPERATIONS = ['set', 'delete', 'append', 'subtract'];

function text(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return value.length > MAX_INPUT_STRING_CHARS ? `${value.slice(0, MAX_INPUT_STRING_CHARS)}…` : value;
}

function capped<T>(entries: readonly T[]): { entries: T[]; omitted?: number } {
  return entries.length > MAX_INPUT_ENTRIES
    ? { entries: entries.slice(0, MAX_INPUT_ENTRIES), omitted: entries.length - MAX_INPUT_ENTRIES }
    : { entries: [...entries] };
}

function worst(codes: readonly number[]): number {
  return codes.find((code) => code !== ErrorCode.NONE) ?? ErrorCode.NONE;
}

const createTopics: Extractor<typeof CreateTopics> = (request, response) =>
  request.topics.map((topic) => {
    const answer = response.topics.find((candidate) => candidate.name === topic.name);
    const configs = Object.fromEntries(
      capped(topic.configs).entries.map((config) => [config.name, text(config.value)]),
    );
    return {
      action: 'create-topic',
      resourceType: 'topic',
      resourceName: topic.name,
      input: {
        partitions: topic.numPartitions,
        replicationFactor: topic.replicationFactor,
        ...(topic.assignments.length > 0 ? { assignments: topic.assignments.length } : {}),
        ...(topic.configs.length > 0 ? { configs } : {}),
        ...(request.validateOnly ? { validateOnly: true } : {}),
      },
      outcomeCode: answer?.errorCode ?? ErrorCode.UNKNOWN_SERVER_ERROR,
      outcomeMessage: answer?.errorMessage,
    };
  });

const deleteTopics: Extractor<typeof DeleteTopics> = (_request, response) =>
  response.responses.map((answer) => ({
    action: 'delete-topic',
    resourceType: 'topic',
    resourceName: answer.name ?? '',
    input: {},
    outcomeCode: answer.errorCode,
  }));

const createPartitions: Extractor<typeof CreatePartitions> = (request, response) =>
  request.topics.map((topic) => {
    const answer = response.results.find((candidate) => candidate.name === topic.name);
    return {
      action: 'create-partitions',
      resourceType: 'topic',
      resourceName: topic.name,
      input: { count: topic.count, ...(request.validateOnly ? { validateOnly: true } : {}) },
      outcomeCode: answer?.errorCode ?? ErrorCode.UNKNOWN_SERVER_ERROR,
      outcomeMessage: answer?.errorMessage,
    };
  });

const alterConfigs: Extractor<typeof AlterConfigs> = (request, response) =>
  request.resources.map((resource, index) => {
    const answer = response.responses[index];
    return {
      action: 'alter-configs',
      resourceType: configResourceType(resource.resourceType),
      resourceName: resource.resourceName,
      input: {
        replace: Object.fromEntries(
          capped(resource.configs).entries.map((config) => [config.name, text(config.value)]),
        ),
        ...(request.validateOnly ? { validateOnly: true } : {}),
      },
      outcomeCode: answer?.errorCode ?? ErrorCode.UNKNOWN_SERVER_ERROR,
      outcomeMessage: answer?.errorMessage,
    };
  });

const incrementalAlterConfigs: Extractor<typeof IncrementalAlterConfigs> = (request, response) =>
  request.resources.map((resource, index) => {
    const answer = response.responses[index];
    return {
      action: 'alter-configs',
      resourceType: configResourceType(resource.resourceType),
      resourceName: resource.resourceName,
      input: {
        changes: capped(resource.configs).entries.map((config) => ({
          name: config.name,
          operation: CONFIG_OPERATIONS[config.configOperation] ?? String(config.configOperation),
          ...(config.configOperation === 1 ? {} : { value: text(config.value) }),
        })),
        ...(request.validateOnly ? { validateOnly: true } : {}),
      },
      outcomeCode: answer?.errorCode ?? ErrorCode.UNKNOWN_SERVER_ERROR,
      outcomeMessage: answer?.errorMessage,
    };
  });

/** An ACL binding or filter in the names Kafka's tools print. */
function aclSummary(binding: {
  resourceType: number;
  resourceName: string | null;
  patternType: number;
  principal: string | null;
  host: string | null;
  operation: number;
  permissionType: number;
}): Record<string, unknown> {
  return {
    resourceType: aclNameOf(ACL_RESOURCE_TYPE_IDS, binding.resourceType) ?? binding.resourceType,
    resourceName: binding.resourceName,
    patternType: aclNameOf(ACL_PATTERN_TYPE_IDS, binding.patternType) ?? binding.patternType,
    principal: binding.principal,
    host: binding.host,
    operation: aclNameOf(ACL_OPERATION_IDS, binding.operation) ?? binding.operation,
    permission: aclNameOf(ACL_PERMISSION_IDS, binding.permissionType) ?? binding.permissionType,
  };
}

const createAcls: Extractor<typeof CreateAcls> = (request, response) =>
  request.creations.map((creation, index) => {
    const answer = response.results[index];
    return {
      action: 'create-acl',
      resourceType: 'acl',
      resourceName: creation.resourceName,
      input: aclSummary({ ...creation, patternType: creation.resourcePatternType }),
      outcomeCode: answer?.errorCode ?? ErrorCode.UNKNOWN_SERVER_ERROR,
      outcomeMessage: answer?.errorMessage,
    };
  });

const deleteAcls: Extractor<typeof DeleteAcls> = (request, response) =>
  request.filters.map((filter, index) => {
    const answer = response.filterResults[index];
    const deleted = capped(answer?.matchingAcls ?? []);
    return {
      action: 'delete-acls',
      resourceType: 'acl',
      resourceName: filter.resourceNameFilter ?? '*',
      input: {
        filter: aclSummary({
          resourceType: filter.resourceTypeFilter,
          resourceName: filter.resourceNameFilter,
          patternType: filter.patternTypeFilter,
          principal: filter.principalFilter,
          host: filter.hostFilter,
          operation: filter.operation,
          permissionType: filter.permissionType,
        }),
        deleted: deleted.entries.map((binding) => aclSummary(binding)),
        ...(deleted.omitted === undefined ? {} : { deletedOmitted: deleted.omitted }),
      },
      outcomeCode: answer?.errorCode ?? ErrorCode.UNKNOWN_SERVER_ERROR,
      outcomeMessage: answer?.errorMessage,
    };
  });

const deleteRecords: Extractor<typeof DeleteRecords> = (request, response) =>
  request.topics.map((topic) => {
    const answer = response.topics.find((candidate) => candidate.name === topic.name);
    const codes = (answer?.partitions ?? []).map((partition) => partition.errorCode);
    return {
      action: 'delete-records',
      resourceType: 'topic',
      resourceName: topic.name,
      input: {
        beforeOffsets: Object.fromEntries(
          capped(topic.partitions).entries.map((partition) => [
            partition.partitionIndex,
            String(partition.offset),
          ]),
        ),
      },
      outcomeCode: answer === undefined ? ErrorCode.UNKNOWN_SERVER_ERROR : worst(codes),
    };
  });

const offsetDelete: Extractor<typeof OffsetDelete> = (request, response) => {
  const codes = (response.topics ?? []).flatMap((topic) =>
    topic.partitions.map((partition) => partition.errorCode),
  );
  return [
    {
      action: 'delete-offsets',
      resourceType: 'group',
      resourceName: request.groupId,
      input: {
        partitions: capped(
          request.topics.flatMap((topic) =>
            topic.partitions.map((partition) => `${topic.name}-${partition.partitionIndex}`),
          ),
        ).entries,
      },
      outcomeCode: response.errorCode !== ErrorCode.NONE ? response.errorCode : worst(codes),
    },
  ];
};

const deleteGroups: Extractor<typeof DeleteGroups> = (_request, response) =>
  response.results.map((result) => ({
    action: 'delete-group',
    resourceType: 'group',
    resourceName: result.groupId,
    input: {},
    outcomeCode: result.errorCode,
  }));

/**
 * Only an administrative commit: generation -1 and no member, what an offset reset sends (and
 * Kafka's kafka-consumer-groups). A member's commits are the group's own traffic, not an action.
 */
const offsetCommit: Extractor<typeof OffsetCommit> = (request, response) => {
  if (request.generationIdOrMemberEpoch !== -1 || request.memberId !== '') return [];
  const codes = response.topics.flatMap((topic) => topic.partitions.map((partition) => partition.errorCode));
  return [
    {
      action: 'commit-offsets',
      resourceType: 'group',
      resourceName: request.groupId,
      input: {
        offsets: Object.fromEntries(
          capped(
            request.topics.flatMap((topic) =>
              topic.partitions.map((partition) => [
                `${topic.name}-${partition.partitionIndex}`,
                String(partition.committedOffset),
              ]),
            ),
          ).entries,
        ),
      },
      outcomeCode: worst(codes),
    },
  ];
};

const upsertUser: Extractor<typeof WeirUpsertUser> = (request, response) => [
  {
    action: 'upsert-user',
    resourceType: 'user',
    resourceName: request.username,
    // The password, salt and salted password are secrets: only which one was given is kept.
    input: {
      mechanism: request.mechanism,
      ...(request.iterations === 0 ? {} : { iterations: request.iterations }),
      credential: request.password !== null ? 'password' : 'salted-password',
    },
    outcomeCode: response.errorCode,
    outcomeMessage: response.errorMessage,
  },
];

const deleteUser: Extractor<typeof WeirDeleteUser> = (request, response) => [
  {
    action: 'delete-user',
    resourceType: 'user',
    resourceName: request.username,
    input: request.mechanism === null ? {} : { mechanism: request.mechanism },
    outcomeCode: response.errorCode,
    outcomeMessage: response.errorMessage,
  },
];

const abortTransaction: Extractor<typeof WeirAbortTransaction> = (request, response) => [
  {
    action: 'abort-transaction',
    resourceType: 'transactional-id',
    resourceName: request.transactionalId,
    input: { reason: text(request.reason) },
    outcomeCode: response.errorCode,
    outcomeMessage: response.errorMessage,
  },
];

function entry<A extends ApiSchema>(api: A, extract: Extractor<A>): [number, Extractor<ApiSchema>] {
  return [api.apiKey, extract as unknown as Extractor<ApiSchema>];
}

/** The audited APIs by key (docs/architecture.md §8), each turning a request and its answer into events. */
const EXTRACTORS: ReadonlyMap<number, Extractor<ApiSchema>> = new Map([
  entry(CreateTopics, createTopics),
  entry(DeleteTopics, deleteTopics),
  entry(CreatePartitions, createPartitions),
  entry(AlterConfigs, alterConfigs),
  entry(IncrementalAlterConfigs, incrementalAlterConfigs),
  entry(CreateAcls, createAcls),
  entry(DeleteAcls, deleteAcls),
  entry(DeleteRecords, deleteRecords),
  entry(OffsetDelete, offsetDelete),
  entry(DeleteGroups, deleteGroups),
  entry(OffsetCommit, offsetCommit),
  entry(WeirUpsertUser, upsertUser),
  entry(WeirDeleteUser, deleteUser),
  entry(WeirAbortTransaction, abortTransaction),
]);

/** Whether requests with this API key are audited. */
export function isAuditedApi(apiKey: number): boolean {
  return EXTRACTORS.has(apiKey);
}

/** The events one answered request makes: one per resource it named (none for unaudited APIs). */
export function auditEventsOf(
  apiKey: number,
  request: unknown,
  response: unknown,
  facts: AuditedRequestFacts,
): NewAuditEvent[] {
  const extract = EXTRACTORS.get(apiKey);
  if (extract === undefined) return [];
  return extract(request as never, response as never).map((item) => {
    const { outcomeMessage, ...rest } = item;
    return {
      ...facts,
      ...rest,
      ...(outcomeMessage === null || outcomeMessage === undefined || outcomeMessage === ''
        ? {}
        : { outcomeMessage: text(outcomeMessage)! }),
    };
  });
}
