/**
 * Turning a payload (base64 plus its UTF-8 text when valid) into what the viewer shows. Pure
 * functions, so the decoding rules are easy to test and reuse in the permalink page.
 */

import { showBidiControls } from '@weir/ui';
/**
 * `auto` shows JSON objects and arrays pretty-printed and anything else as text (or hex).
 * `schema` shows what the server decoded with the topic's Avro or Protobuf schema.
 */
export type DecodeMode = 'auto' | 'text' | 'json' | 'hex' | 'schema';

/** The server's schema decoding of a payload (rows read with `decode=schema`). */
export type SchemaDecoded = { json: unknown } | { error: string };

export type PayloadLike = {
  base64: string;
  text: string | null;
  sizeBytes: number;
  truncated: boolean;
  decoded?: SchemaDecoded | undefined;
};

/** Above this many bytes the viewer shows metadata and a "load anyway" button instead of the data. */
export const renderGuardBytes = 256 * 1024;

export function base64ToBytes(base64: string): Uint8Array {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

/** A classic hex dump: offset, sixteen bytes in hex, and their printable ASCII. */
export function hexDump(bytes: Uint8Array): string {
  const lines: string[] = [];
  for (let start = 0; start < bytes.length; start += 16) {
    const chunk = bytes.subarray(start, start + 16);
    const hex = Array.from(chunk, (byte) => byte.toString(16).padStart(2, '0')).join(' ');
    const ascii = Array.from(chunk, (byte) =>
      byte >= 0x20 && byte < 0x7f ? String.fromCharCode(byte) : '.',
    ).join('');
    lines.push(`${start.toString(16).padStart(8, '0')}  ${hex.padEnd(47)}  ${ascii}`);
  }
  return lines.join('\n');
}

export type Decoded = { text: string; note?: string };

/** Decodes in the chosen mode, falling back (with a note saying so) when the bytes do not fit it. */
export function decodePayload(payload: PayloadLike, mode: DecodeMode): Decoded {
  if (mode === 'schema') return schemaDecoded(payload);
  if (mode === 'hex') return { text: hexDump(base64ToBytes(payload.base64)) };
  if (payload.text === null) {
    return { text: hexDump(base64ToBytes(payload.base64)), note: 'Not valid UTF-8; shown as hex.' };
  }
  if (mode === 'text') return { text: payload.text };
  if (mode === 'auto') return detectJson(payload.text) ?? { text: payload.text };
  const pretty = prettyJson(payload.text);
  if (pretty !== undefined) return { text: pretty };
  return {
    text: payload.text,
    note: payload.truncated
      ? 'Cut at the size limit, so it cannot be parsed as JSON.'
      : 'Not JSON; shown as text.',
  };
}

/** The schema decoding pretty-printed; a record it failed on shows the reason and its hex. */
function schemaDecoded(payload: PayloadLike): Decoded {
  const decoded = payload.decoded;
  if (decoded === undefined) {
    const auto = decodePayload(payload, 'auto');
    return { text: auto.text, note: 'No schema for this side; shown as in Auto.' };
  }
  if ('error' in decoded) {
    return {
      text: hexDump(base64ToBytes(payload.base64)),
      note: `The schema did not decode it (${decoded.error}); shown as hex.`,
    };
  }
  return { text: JSON.stringify(decoded.json, null, 2) };
}

/** The text indented as JSON, or undefined when it is not JSON. */
function prettyJson(text: string): string | undefined {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return undefined;
  }
}

/**
 * The text pretty-printed when it is a JSON object or array, else undefined. Scalars stay text: a
 * bare number or a quoted word is more often a plain value than a JSON document.
 */
export function detectJson(text: string): Decoded | undefined {
  const start = text.trimStart()[0];
  if (start !== '{' && start !== '[') return undefined;
  const pretty = prettyJson(text);
  return pretty === undefined ? undefined : { text: pretty, note: 'JSON detected; pretty-printed.' };
}

/** A one-line preview for table cells. */
export function previewPayload(payload: PayloadLike | null, maxChars = 120, mode?: DecodeMode): string {
  if (payload === null) return 'null';
  if (mode === 'schema' && payload.decoded !== undefined) {
    const flat =
      'json' in payload.decoded
        ? JSON.stringify(payload.decoded.json)
        : `<not decoded: ${payload.decoded.error}>`;
    return showBidiControls(flat.length > maxChars ? `${flat.slice(0, maxChars)}…` : flat);
  }
  if (payload.text === null) return `<${payload.sizeBytes} bytes binary>`;
  const flat = payload.text.replace(/\s+/g, ' ');
  // Cut first, then mark: a marker is never cut in half, and bidi controls never reorder the row.
  return showBidiControls(flat.length > maxChars ? `${flat.slice(0, maxChars)}…` : flat);
}
