import { assertAclRulesFor } from '../security/acl/api-acl-rules';
import type { ApiHandler } from './handler';
import { addOffsetsToTxnHandler } from './handlers/add-offsets-to-txn';
import { addPartitionsToTxnHandler } from './handlers/add-partitions-to-txn';
import { alterConfigsHandler } from './handlers/alter-configs';
import { type AdvertisedApi, createApiVersionsHandler } from './handlers/api-versions';
import { createAclsHandler } from './handlers/create-acls';
import { createPartitionsHandler } from './handlers/create-partitions';
import { createTopicsHandler } from './handlers/create-topics';
import { deleteAclsHandler } from './handlers/delete-acls';
import { deleteGroupsHandler } from './handlers/delete-groups';
import { deleteRecordsHandler } from './handlers/delete-records';
import { deleteTopicsHandler } from './handlers/delete-topics';
import { describeAclsHandler } from './handlers/describe-acls';
import { describeConfigsHandler } from './handlers/describe-configs';
import { describeGroupsHandler } from './handlers/describe-groups';
import { endTxnHandler } from './handlers/end-txn';
import { fetchHandler } from './handlers/fetch';
import { findCoordinatorHandler } from './handlers/find-coordinator';
import { heartbeatHandler } from './handlers/heartbeat';
import { incrementalAlterConfigsHandler } from './handlers/incremental-alter-configs';
import { initProducerIdHandler } from './handlers/init-producer-id';
import { joinGroupHandler } from './handlers/join-group';
import { leaveGroupHandler } from './handlers/leave-group';
import { listGroupsHandler } from './handlers/list-groups';
import { listOffsetsHandler } from './handlers/list-offsets';
import { metadataHandler } from './handlers/metadata';
import { offsetCommitHandler } from './handlers/offset-commit';
import { offsetDeleteHandler } from './handlers/offset-delete';
import { offsetFetchHandler } from './handlers/offset-fetch';
import { produceHandler } from './handlers/produce';
import { syncGroupHandler } from './handlers/sync-group';
import { txnOffsetCommitHandler } from './handlers/txn-offset-commit';

/**
 * Which handler serves which API key. Built once; a duplicate key, a handler advertising versions
 * its schema does not define, or an API without an authorization rule is a bug and fails at start.
 */
export class HandlerRegistry {
  readonly #handlers = new Map<number, ApiHandler>();

  constructor(handlers: readonly ApiHandler[]) {
    for (const handler of handlers) this.#add(handler);
    this.#add(createApiVersionsHandler(() => this.advertised()));
    assertAclRulesFor([...this.#handlers.values()].map((handler) => handler.api.name));
  }

  get(apiKey: number): ApiHandler | undefined {
    return this.#handlers.get(apiKey);
  }

  /** What ApiVersions reports: exactly the served keys and versions, sorted by key. */
  advertised(): AdvertisedApi[] {
    return [...this.#handlers.values()]
      .map((handler) => ({
        apiKey: handler.api.apiKey,
        minVersion: handler.versions.min,
        maxVersion: handler.versions.max,
      }))
      .sort((left, right) => left.apiKey - right.apiKey);
  }

  #add(handler: ApiHandler): void {
    const { api, versions } = handler;
    if (this.#handlers.has(api.apiKey)) throw new Error(`two handlers for ${api.name} (key ${api.apiKey})`);
    if (versions.min < api.versions.min || versions.max > api.versions.max || versions.min > versions.max) {
      throw new Error(`${api.name} handler advertises ${versions.min}-${versions.max} beyond its schema`);
    }
    this.#handlers.set(api.apiKey, handler);
  }
}

/** The handlers of the client listener. */
export function clientHandlers(): ApiHandler[] {
  return [
    produceHandler,
    fetchHandler,
    listOffsetsHandler,
    metadataHandler,
    createTopicsHandler,
    deleteTopicsHandler,
    deleteRecordsHandler,
    initProducerIdHandler,
    createPartitionsHandler,
    describeConfigsHandler,
    alterConfigsHandler,
    incrementalAlterConfigsHandler,
    findCoordinatorHandler,
    joinGroupHandler,
    syncGroupHandler,
    heartbeatHandler,
    leaveGroupHandler,
    offsetCommitHandler,
    offsetFetchHandler,
    listGroupsHandler,
    describeGroupsHandler,
    deleteGroupsHandler,
    offsetDeleteHandler,
    addPartitionsToTxnHandler,
    addOffsetsToTxnHandler,
    txnOffsetCommitHandler,
    endTxnHandler,
    describeAclsHandler,
    createAclsHandler,
    deleteAclsHandler,
  ] as ApiHandler[];
}
