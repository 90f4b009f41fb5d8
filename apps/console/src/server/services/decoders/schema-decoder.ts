import { createAvroDecoder } from './avro-decoder';
import type { Decoder, TopicSchema } from './decoder';
import { createProtobufDecoder } from './protobuf-decoder';

/** The decoder of an uploaded schema; throws a SchemaProblem when the library refuses the schema. */
export function decoderFor(schema: TopicSchema): Decoder {
  return schema.format === 'avro'
    ? createAvroDecoder(schema.schema, schema.framing)
    : createProtobufDecoder(schema.schema, schema.messageType, schema.framing);
}
