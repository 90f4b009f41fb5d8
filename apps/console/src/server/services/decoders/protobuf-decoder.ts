import protobuf from 'protobufjs';
import { readConfluentFrame } from './confluent-framing';
import { type Decoder, reasonOf, type SchemaFraming, SchemaProblem, toPlainJson } from './decoder';

/** What toObject makes of the special types: JSON-friendly text for 64-bit ints, enums and bytes. */
const TO_OBJECT: protobuf.IConversionOptions = {
  longs: String,
  enums: String,
  bytes: String,
  defaults: true,
  oneofs: true,
};

/** The root of parsed .proto text (no imports are fetched); a SchemaProblem on `schema` when refused. */
function parseProto(schemaText: string): protobuf.Root {
  try {
    const root = protobuf.parse(schemaText, { keepCase: true }).root;
    root.resolveAll();
    return root;
  } catch (error) {
    throw new SchemaProblem('schema', reasonOf(error));
  }
}

/** The message types declared at the file's top level (in a package or not), in declaration order. */
function topLevelMessages(namespace: protobuf.NamespaceBase): protobuf.Type[] {
  const found: protobuf.Type[] = [];
  for (const nested of namespace.nestedArray) {
    if (nested instanceof protobuf.Type) found.push(nested);
    else if (nested instanceof protobuf.Namespace) found.push(...topLevelMessages(nested));
  }
  return found;
}

/** The message type a Confluent message-index path names, or undefined. */
function typeAtIndexes(root: protobuf.Root, indexes: readonly number[]): protobuf.Type | undefined {
  let candidates = topLevelMessages(root);
  let type: protobuf.Type | undefined;
  for (const index of indexes) {
    type = candidates[index];
    if (type === undefined) return undefined;
    candidates = type.nestedArray.filter(
      (nested): nested is protobuf.Type => nested instanceof protobuf.Type,
    );
  }
  return type;
}

/** Checks .proto text and its message type; returns the type. */
export function parseProtobufSchema(
  schemaText: string,
  messageType: string | undefined,
): { root: protobuf.Root; type: protobuf.Type } {
  const root = parseProto(schemaText);
  if (messageType === undefined || messageType.length === 0) {
    throw new SchemaProblem(
      'messageType',
      'a protobuf schema needs the fully-qualified message type of the records',
    );
  }
  const found = root.lookup(messageType.replace(/^\./, ''));
  if (!(found instanceof protobuf.Type)) {
    throw new SchemaProblem('messageType', `the schema declares no message type "${messageType}"`);
  }
  return { root, type: found };
}

/**
 * Protobuf binary encoding (protobufjs). Bare records are `messageType`; in the Confluent wire
 * format the message-index path picks the type, as Confluent's deserializer does.
 */
export function createProtobufDecoder(
  schemaText: string,
  messageType: string | undefined,
  framing: SchemaFraming,
): Decoder {
  const { root, type } = parseProtobufSchema(schemaText, messageType);
  return {
    decode(bytes) {
      let body = bytes;
      let recordType = type;
      if (framing === 'confluent') {
        const frame = readConfluentFrame(bytes, true);
        if ('error' in frame) return frame;
        const named = typeAtIndexes(root, frame.messageIndexes);
        if (named === undefined) {
          return {
            error: `message indexes [${frame.messageIndexes.join(', ')}] name no message of the schema`,
          };
        }
        recordType = named;
        body = frame.body;
      }
      try {
        const message = recordType.decode(body);
        return { json: toPlainJson(recordType.toObject(message, TO_OBJECT)) };
      } catch (error) {
        return { error: `not protobuf ${recordType.fullName.replace(/^\./, '')}: ${reasonOf(error)}` };
      }
    },
  };
}
