import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { ACL_OPERATIONS, type AclBinding, ErrorCode, sameAclBinding, WeirError } from '@weir/protocol';
import { z } from 'zod';
import { StorageError, type StorageIo } from '../log/storage';
import type {
  MetadataStore,
  ProducerIdBlock,
  ScramCredentialRecord,
  TopicRecord,
  UserRecord,
} from './metadata-store';

const METADATA_FILE = 'metadata.json';
const FORMAT_VERSION = 1;

const fileSchema = z.object({
  version: z.literal(FORMAT_VERSION),
  clusterId: z.string().min(1),
  nextProducerId: z.number().int().min(0),
  topics: z.array(
    z.object({
      name: z.string().min(1),
      topicId: z.string().min(1),
      partitionCount: z.number().int().min(1),
      configs: z.record(z.string(), z.string()),
      internal: z.boolean(),
      createdAtMs: z.number().int(),
    }),
  ),
  // Added after format 1 shipped; a file written before SASL users existed has none.
  users: z
    .array(
      z.object({
        name: z.string().min(1),
        credentials: z.record(
          z.string(),
          z.object({
            salt: z.string().min(1),
            iterations: z.number().int().min(1),
            storedKey: z.string().min(1),
            serverKey: z.string().min(1),
          }),
        ),
      }),
    )
    .default([]),
  // Added after format 1 shipped, like users.
  acls: z
    .array(
      z.object({
        resourceType: z.enum(['TOPIC', 'GROUP', 'CLUSTER', 'TRANSACTIONAL_ID']),
        resourceName: z.string().min(1),
        patternType: z.enum(['LITERAL', 'PREFIXED']),
        principal: z.string().min(1),
        host: z.string().min(1),
        operation: z.enum(ACL_OPERATIONS),
        permission: z.enum(['ALLOW', 'DENY']),
      }),
    )
    .default([]),
});

type MetadataFile = z.infer<typeof fileSchema>;

/** A change waiting for the next write of the catalogue. */
interface PendingChange {
  readonly change: (state: MetadataFile) => void;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/**
 * The embedded metadata store: one JSON file in the data directory, replaced atomically (write a
 * temporary file, fsync, rename, fsync the directory) on every change, so a crash leaves the old
 * or the new catalogue and never a mix. Reads come from memory.
 *
 * Changes are group-committed: those that arrive while a write is under way go into the next
 * write together, so creating thousands of topics costs a few dozen file replacements instead of
 * one each (each replacement rewrites the whole catalogue).
 */
export class LocalMetadataStore implements MetadataStore {
  readonly #path: string;
  #state: MetadataFile | undefined;
  /** Topics by name, for lookups on every request; rebuilt whenever the state is replaced. */
  #topicsByName = new Map<string, TopicRecord>();
  /** Users by name, for every authentication; rebuilt whenever the state is replaced. */
  #usersByName = new Map<string, UserRecord>();
  #pending: PendingChange[] = [];
  #writing = false;

  constructor(
    private readonly io: StorageIo,
    dataDirectory: string,
    private readonly configuredClusterId?: string,
  ) {
    this.#path = join(dataDirectory, METADATA_FILE);
  }

  async load(): Promise<void> {
    let text: string | undefined;
    try {
      text = (await this.io.readWholeFile(this.#path)).toString('utf8');
    } catch (error) {
      if (!(error instanceof StorageError && error.isNotFound)) throw error;
    }
    if (text === undefined) {
      this.#state = {
        version: FORMAT_VERSION,
        clusterId: this.configuredClusterId ?? randomUUID(),
        nextProducerId: 0,
        topics: [],
        users: [],
        acls: [],
      };
      await this.#persist();
      this.#install(this.#state);
      return;
    }
    const parsed = fileSchema.safeParse(JSON.parse(text));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new Error(
        `${this.#path} is not a valid metadata file: ${issue?.path.join('.')}: ${issue?.message}`,
      );
    }
    this.#install(parsed.data);
  }

  clusterId(): string {
    return this.#loaded.clusterId;
  }

  listTopics(): readonly TopicRecord[] {
    return this.#loaded.topics;
  }

  getTopic(name: string): TopicRecord | undefined {
    if (!this.#state) throw new Error('the metadata store is used before load()');
    return this.#topicsByName.get(name);
  }

  createTopic(topic: TopicRecord): Promise<void> {
    return this.#mutate((state) => {
      // TopicManager checked this already; a concurrent create of the same name can still get here.
      if (state.topics.some((existing) => existing.name === topic.name)) {
        throw new WeirError(ErrorCode.TOPIC_ALREADY_EXISTS, {
          detail: `topic "${topic.name}" already exists`,
        });
      }
      state.topics.push({ ...topic, configs: { ...topic.configs } });
    });
  }

  deleteTopic(name: string): Promise<void> {
    return this.#mutate((state) => {
      state.topics = state.topics.filter((topic) => topic.name !== name);
    });
  }

  updateTopic(
    name: string,
    change: { partitionCount?: number; configs?: Record<string, string> },
  ): Promise<void> {
    return this.#mutate((state) => {
      const topic = state.topics.find((candidate) => candidate.name === name);
      if (!topic) throw new Error(`topic ${name} does not exist`);
      if (change.partitionCount !== undefined) topic.partitionCount = change.partitionCount;
      if (change.configs !== undefined) topic.configs = { ...change.configs };
    });
  }

  async allocateProducerIdBlock(count: number): Promise<ProducerIdBlock> {
    let block: ProducerIdBlock | undefined;
    await this.#mutate((state) => {
      block = { firstProducerId: state.nextProducerId, count };
      state.nextProducerId += count;
    });
    return block!;
  }

  listUsers(): readonly UserRecord[] {
    return this.#loaded.users;
  }

  getUser(name: string): UserRecord | undefined {
    if (!this.#state) throw new Error('the metadata store is used before load()');
    return this.#usersByName.get(name);
  }

  putUserCredential(name: string, mechanism: string, credential: ScramCredentialRecord): Promise<void> {
    return this.#mutate((state) => {
      const user = state.users.find((candidate) => candidate.name === name);
      if (user === undefined) state.users.push({ name, credentials: { [mechanism]: { ...credential } } });
      else user.credentials[mechanism] = { ...credential };
    });
  }

  deleteUser(name: string, mechanisms?: readonly string[]): Promise<void> {
    return this.#mutate((state) => {
      const user = state.users.find((candidate) => candidate.name === name);
      const missing =
        user === undefined ? [] : (mechanisms ?? []).filter((m) => !Object.hasOwn(user.credentials, m));
      if (user === undefined || missing.length > 0) {
        throw new WeirError(ErrorCode.RESOURCE_NOT_FOUND, {
          detail:
            user === undefined
              ? `user "${name}" does not exist`
              : `user "${name}" has no ${missing.join(', ')} credential`,
        });
      }
      for (const mechanism of mechanisms ?? Object.keys(user.credentials)) delete user.credentials[mechanism];
      if (Object.keys(user.credentials).length === 0) {
        state.users = state.users.filter((candidate) => candidate !== user);
      }
    });
  }

  listAcls(): readonly AclBinding[] {
    return this.#loaded.acls;
  }

  addAcls(bindings: readonly AclBinding[]): Promise<void> {
    return this.#mutate((state) => {
      for (const binding of bindings) {
        if (!state.acls.some((stored) => sameAclBinding(stored, binding))) state.acls.push({ ...binding });
      }
    });
  }

  async removeAcls(selects: (binding: AclBinding) => boolean): Promise<AclBinding[]> {
    let removed: AclBinding[] = [];
    await this.#mutate((state) => {
      removed = state.acls.filter(selects);
      if (removed.length > 0) state.acls = state.acls.filter((binding) => !selects(binding));
    });
    return removed;
  }

  get #loaded(): MetadataFile {
    if (!this.#state) throw new Error('the metadata store is used before load()');
    return this.#state;
  }

  /**
   * Queues a change for the next write and resolves once it is durable. Changes validate before
   * they modify anything, so one that throws is refused alone and leaves the shared copy as it was.
   */
  #mutate(change: (state: MetadataFile) => void): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#pending.push({ change, resolve, reject });
      if (!this.#writing) void this.#writePending();
    });
  }

  /**
   * Applies the queued changes to a copy, persists the copy, then makes it current: readers never
   * see a change that is not yet durable, and a failed write leaves the old state in place (and
   * fails every change it carried).
   */
  async #writePending(): Promise<void> {
    this.#writing = true;
    try {
      while (this.#pending.length > 0) {
        const batch = this.#pending.splice(0);
        const next = structuredClone(this.#loaded);
        const applied: PendingChange[] = [];
        for (const item of batch) {
          try {
            item.change(next);
            applied.push(item);
          } catch (error) {
            item.reject(error);
          }
        }
        if (applied.length === 0) continue;
        try {
          await this.#write(next);
        } catch (error) {
          for (const item of applied) item.reject(error);
          continue;
        }
        this.#install(next);
        for (const item of applied) item.resolve();
      }
    } finally {
      this.#writing = false;
    }
  }

  #install(state: MetadataFile): void {
    this.#state = state;
    this.#topicsByName = new Map(state.topics.map((topic) => [topic.name, topic]));
    this.#usersByName = new Map(state.users.map((user) => [user.name, user]));
  }

  #persist(): Promise<void> {
    return this.#write(this.#loaded);
  }

  async #write(state: MetadataFile): Promise<void> {
    await this.io.writeFileAtomic(this.#path, Buffer.from(`${JSON.stringify(state, null, 2)}\n`, 'utf8'));
  }
}
