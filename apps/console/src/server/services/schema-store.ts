import { Consumer, ErrorCode, WeirError } from '@weir/protocol';
import type { BrokerClients } from '../admin-client';
import { asKafkaError } from '../api/error-shapes';
import type { Decoder, TopicSchema } from './decoders/decoder';
import { decoderFor } from './decoders/schema-decoder';

/*
 * Uploaded schemas live in a compacted topic of the cluster, so every console instance sees the
 * same ones and they survive restarts. A record's key is `<side>:<topic>`, its value the schema as
 * JSON, and a tombstone deletes it; compaction keeps the latest per key. The broker reserves only
 * its coordinators' topics (apps/broker/src/topics/topic-name.ts INTERNAL_TOPICS), so the console
 * may create this `__`-prefixed one itself, on the first upload.
 */
export const SCHEMAS_TOPIC = '__weir_schemas';

export type SchemaSide = 'key' | 'value';

/** A stored schema: the upload and when it was made. */
export interface StoredSchema extends TopicSchema {
  readonly topic: string;
  readonly side: SchemaSide;
  readonly uploadedAtMs: number;
}

/** The decoders of one topic's sides; a side without a schema has none. */
export interface TopicDecoders {
  readonly key?: Decoder;
  readonly value?: Decoder;
}

interface Snapshot {
  /** The topic's end offset when read: a later read only reloads when it moved. */
  readonly endOffset: bigint;
  readonly schemas: ReadonlyMap<string, StoredSchema>;
  readonly decoders: Map<string, Decoder>;
}

const EMPTY: Snapshot = { endOffset: -1n, schemas: new Map(), decoders: new Map() };
const READ_WAIT_MS = 500;
const READ_DEADLINE_MS = 10_000;

function keyOf(topic: string, side: SchemaSide): string {
  return `${side}:${topic}`;
}

function isUnknownTopic(error: unknown): boolean {
  return asKafkaError(error)?.originalCode === ErrorCode.UNKNOWN_TOPIC_OR_PARTITION;
}

/** A stored value as a schema, or undefined when it is not one this console wrote. */
function parseStored(key: string, value: Buffer): StoredSchema | undefined {
  const separator = key.indexOf(':');
  const side = key.slice(0, separator);
  if (separator < 0 || (side !== 'key' && side !== 'value')) return undefined;
  try {
    const parsed = JSON.parse(value.toString('utf8')) as Partial<StoredSchema>;
    if ((parsed.format !== 'avro' && parsed.format !== 'protobuf') || typeof parsed.schema !== 'string') {
      return undefined;
    }
    return {
      topic: key.slice(separator + 1),
      side,
      format: parsed.format,
      schema: parsed.schema,
      ...(typeof parsed.messageType === 'string' ? { messageType: parsed.messageType } : {}),
      framing: parsed.framing === 'confluent' ? 'confluent' : 'none',
      uploadedAtMs: typeof parsed.uploadedAtMs === 'number' ? parsed.uploadedAtMs : 0,
    };
  } catch {
    return undefined;
  }
}

/**
 * The schemas topic read through the SDK, cached in this process: a read first asks the topic's
 * end offset and reloads only when it moved (an upload or delete by any console instance).
 */
export class SchemaStore {
  #snapshot: Snapshot = EMPTY;
  #loading: Promise<Snapshot> | undefined;

  constructor(private readonly clients: BrokerClients) {}

  /** Every stored schema, sorted by topic then side. */
  async list(): Promise<StoredSchema[]> {
    const snapshot = await this.#current();
    return [...snapshot.schemas.values()].sort(
      (a, b) => a.topic.localeCompare(b.topic) || a.side.localeCompare(b.side),
    );
  }

  async get(topic: string, side: SchemaSide): Promise<StoredSchema | undefined> {
    return (await this.#current()).schemas.get(keyOf(topic, side));
  }

  /** The decoders of a topic's schemas (built once per snapshot). */
  async decodersFor(topic: string): Promise<TopicDecoders> {
    const snapshot = await this.#current();
    const decoderOf = (side: SchemaSide): Decoder | undefined => {
      const key = keyOf(topic, side);
      const schema = snapshot.schemas.get(key);
      if (schema === undefined) return undefined;
      let decoder = snapshot.decoders.get(key);
      if (decoder === undefined) {
        decoder = decoderFor(schema);
        snapshot.decoders.set(key, decoder);
      }
      return decoder;
    };
    const key = decoderOf('key');
    const value = decoderOf('value');
    return { ...(key === undefined ? {} : { key }), ...(value === undefined ? {} : { value }) };
  }

  /** Stores a schema (already validated by the caller); creates the topic on first use. */
  async put(topic: string, side: SchemaSide, schema: TopicSchema, nowMs: number): Promise<StoredSchema> {
    await this.#ensureTopic();
    const stored: StoredSchema = { ...schema, topic, side, uploadedAtMs: nowMs };
    const { topic: _topic, side: _side, ...value } = stored;
    await this.clients.producer('none').send({
      topic: SCHEMAS_TOPIC,
      messages: [{ key: keyOf(topic, side), value: JSON.stringify(value) }],
    });
    return stored;
  }

  /** Deletes a schema with a tombstone; false when there was none. */
  async delete(topic: string, side: SchemaSide): Promise<boolean> {
    if ((await this.get(topic, side)) === undefined) return false;
    await this.clients.producer('none').send({
      topic: SCHEMAS_TOPIC,
      messages: [{ key: keyOf(topic, side), value: null }],
    });
    return true;
  }

  async #ensureTopic(): Promise<void> {
    try {
      await this.clients
        .admin()
        .createTopics([{ name: SCHEMAS_TOPIC, partitions: 1, configs: { 'cleanup.policy': 'compact' } }]);
    } catch (error) {
      if (asKafkaError(error)?.originalCode !== ErrorCode.TOPIC_ALREADY_EXISTS) throw error;
    }
  }

  async #current(): Promise<Snapshot> {
    let endOffset: bigint;
    try {
      const [partition] = await this.clients.admin().topicOffsets(SCHEMAS_TOPIC);
      endOffset = partition?.latest ?? 0n;
    } catch (error) {
      if (isUnknownTopic(error)) return EMPTY;
      throw error;
    }
    if (endOffset === this.#snapshot.endOffset) return this.#snapshot;
    this.#loading ??= this.#load(endOffset).finally(() => {
      this.#loading = undefined;
    });
    const loaded = await this.#loading;
    // A load started for an older end offset is fine to answer with: it is at most one write behind.
    return loaded;
  }

  /** Reads the topic from its start to `endOffset` (the latest record per key wins). */
  async #load(endOffset: bigint): Promise<Snapshot> {
    const schemas = new Map<string, StoredSchema>();
    if (endOffset > 0n) {
      const consumer = new Consumer(this.clients.client(), {
        maxWaitMs: READ_WAIT_MS,
        autoOffsetReset: 'earliest',
        isolationLevel: 'read_uncommitted',
      });
      const deadlineMs = Date.now() + READ_DEADLINE_MS;
      try {
        consumer.assign([{ topic: SCHEMAS_TOPIC, partition: 0, offset: 'earliest' }]);
        // Compaction leaves holes, so the read ends by position, not by counting records.
        while ((consumer.position(SCHEMAS_TOPIC, 0) ?? -1n) < endOffset) {
          if (Date.now() > deadlineMs) {
            throw new WeirError(ErrorCode.REQUEST_TIMED_OUT, {
              detail: `reading ${SCHEMAS_TOPIC} up to offset ${endOffset} took too long`,
            });
          }
          for (const record of await consumer.poll()) {
            if (record.offset >= endOffset || record.key === null) continue;
            const key = record.key.toString('utf8');
            const stored = record.value === null ? undefined : parseStored(key, record.value);
            if (stored === undefined) schemas.delete(key);
            else schemas.set(key, stored);
          }
        }
      } finally {
        await consumer.close();
      }
    }
    this.#snapshot = { endOffset, schemas, decoders: new Map() };
    return this.#snapshot;
  }
}

// One store per set of broker clients (the console's own, never a logged-in user's).
const STORES = new WeakMap<BrokerClients, SchemaStore>();

export function schemaStoreOf(clients: BrokerClients): SchemaStore {
  let store = STORES.get(clients);
  if (store === undefined) {
    store = new SchemaStore(clients);
    STORES.set(clients, store);
  }
  return store;
}
