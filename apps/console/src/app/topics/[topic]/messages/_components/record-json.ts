import type { MessageRow } from '../../../../../server/api/schemas/messages';

type Payload = MessageRow['key'];

/** Text when the bytes are UTF-8, else base64 with the encoding named, so nothing is lost. */
function payloadJson(payload: Payload): unknown {
  if (payload === null) return null;
  if (payload.text !== null && !payload.truncated) return payload.text;
  return { base64: payload.base64, sizeBytes: payload.sizeBytes, truncated: payload.truncated };
}

/** The record as pretty JSON for the clipboard: exact offsets, ISO time, headers in order. */
export function recordAsJson(topic: string, record: MessageRow): string {
  return JSON.stringify(
    {
      topic,
      partition: record.partition,
      offset: record.offset,
      timestamp: new Date(record.timestampMs).toISOString(),
      timestampType: record.timestampType,
      key: payloadJson(record.key),
      value: payloadJson(record.value),
      headers: record.headers.map((header) => ({ key: header.key, value: payloadJson(header.value) })),
    },
    null,
    2,
  );
}
