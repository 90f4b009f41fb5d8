import { createRequire } from 'node:module';

/**
 * Access to kafkajs 2.2.4's own protocol encoders and decoders, the independent implementation our
 * codec is cross-checked against. These are kafkajs internals (not its public API), pinned by the
 * exact dev-dependency version.
 */
const require = createRequire(import.meta.url);

interface KafkajsEncoder {
  buffer: Buffer;
}

interface KafkajsRequest {
  apiKey: number;
  apiVersion: number;
  encode: () => Promise<KafkajsEncoder>;
}

type KafkajsRequestFactory = (input: Record<string, unknown>) => KafkajsRequest;

interface KafkajsResponse {
  decode: (payload: Buffer) => Promise<Record<string, unknown>>;
}

const createRequest = require('kafkajs/src/protocol/request') as (input: {
  correlationId: number;
  clientId: string;
  request: KafkajsRequest;
}) => Promise<KafkajsEncoder>;

/** The request factory kafkajs uses for one API folder (e.g. "metadata") and version. */
export function kafkajsRequest(apiFolder: string, version: number): KafkajsRequestFactory {
  return require(`kafkajs/src/protocol/requests/${apiFolder}/v${version}/request`) as KafkajsRequestFactory;
}

/** The response module kafkajs uses for one API folder and version. */
export function kafkajsResponse(apiFolder: string, version: number): KafkajsResponse {
  return require(`kafkajs/src/protocol/requests/${apiFolder}/v${version}/response`) as KafkajsResponse;
}

/** Encodes a request the way kafkajs puts it on the wire: a whole frame, size prefix included. */
export async function encodeWithKafkajs(
  request: KafkajsRequest,
  correlationId = 1,
  clientId = 'kafkajs-interop',
): Promise<Buffer> {
  const encoder = await createRequest({ correlationId, clientId, request });
  return encoder.buffer;
}

/**
 * Decodes one of our response frames (size prefix included) the way a kafkajs connection does:
 * it strips the size and the correlation id and hands the rest to the response decoder.
 */
export async function decodeWithKafkajs(
  apiFolder: string,
  version: number,
  frame: Buffer,
): Promise<Record<string, unknown>> {
  const payload = frame.subarray(8);
  return kafkajsResponse(apiFolder, version).decode(payload);
}
