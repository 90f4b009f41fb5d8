import { isUtf8 } from 'node:buffer';
import type { ConsumerRecord } from '@weir/protocol';

/**
 * One record as a line of JSON:
 * `{"topic","partition","offset","timestamp","key","value","headers":[{"key","value"}]}`.
 * Keys, values and header values are strings when they are valid UTF-8 and base64 otherwise, with
 * `"keyEncoding"`/`"valueEncoding": "base64"` beside them (absent for UTF-8), so binary data comes
 * through intact and text stays readable. Headers are a list because Kafka allows repeated keys.
 * The offset is written from the bigint's digits, so it is exact in the text at any size.
 */
export function recordJson(record: ConsumerRecord): string {
  const fields = [
    `"topic":${JSON.stringify(record.topic)}`,
    `"partition":${record.partition}`,
    `"offset":${record.offset.toString()}`,
    `"timestamp":${record.timestampMs}`,
    ...bytesFields('key', record.key),
    ...bytesFields('value', record.value),
    `"headers":[${record.headers
      .map(
        (header) =>
          `{${[`"key":${JSON.stringify(header.key)}`, ...bytesFields('value', header.value)].join(',')}}`,
      )
      .join(',')}]`,
  ];
  return `{${fields.join(',')}}`;
}

function bytesFields(name: string, bytes: Buffer | null): string[] {
  if (bytes === null) return [`"${name}":null`];
  if (isUtf8(bytes)) return [`"${name}":${JSON.stringify(bytes.toString('utf8'))}`];
  return [`"${name}":${JSON.stringify(bytes.toString('base64'))}`, `"${name}Encoding":"base64"`];
}
