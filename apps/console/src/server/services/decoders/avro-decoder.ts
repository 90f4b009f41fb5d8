import avro from 'avsc';
import { readConfluentFrame } from './confluent-framing';
import { type Decoder, reasonOf, type SchemaFraming, SchemaProblem, toPlainJson } from './decoder';

/** The Avro type of an uploaded JSON schema; a SchemaProblem on `schema` when avsc refuses it. */
export function parseAvroSchema(schemaText: string): avro.Type {
  let parsed: unknown;
  try {
    parsed = JSON.parse(schemaText);
  } catch (error) {
    throw new SchemaProblem('schema', `not JSON: ${reasonOf(error)}`);
  }
  try {
    return avro.Type.forSchema(parsed as avro.Schema);
  } catch (error) {
    throw new SchemaProblem('schema', reasonOf(error));
  }
}

/** Avro binary encoding (avsc), bare or in the Confluent wire format. */
export function createAvroDecoder(schemaText: string, framing: SchemaFraming): Decoder {
  const type = parseAvroSchema(schemaText);
  return {
    decode(bytes) {
      let body = bytes;
      if (framing === 'confluent') {
        const frame = readConfluentFrame(bytes, false);
        if ('error' in frame) return frame;
        body = frame.body;
      }
      try {
        // fromBuffer refuses trailing bytes, so a payload written with another schema rarely passes.
        return {
          json: toPlainJson(type.fromBuffer(Buffer.from(body.buffer, body.byteOffset, body.byteLength))),
        };
      } catch (error) {
        return { error: `not Avro of this schema: ${reasonOf(error)}` };
      }
    },
  };
}
