import type { MessageHeader, ProducerMessage } from '@weir/protocol';

/** How every input line becomes a record. */
export interface LineFormat {
  /** Splits the key from the value at its first occurrence; without it, lines are values only. */
  keySeparator?: Buffer;
  /** Added to every record. */
  headers: readonly MessageHeader[];
  /** Sends every record to this partition instead of choosing by key. */
  partition?: number;
}

/**
 * One input line as a record. With a key separator, a line that does not contain it is a value
 * with no key (a null key, placed by the sticky partitioner), as kcat does.
 */
export function lineToMessage(line: Buffer, format: LineFormat): ProducerMessage {
  let key: Buffer | null = null;
  let value = line;
  if (format.keySeparator !== undefined) {
    const split = line.indexOf(format.keySeparator);
    if (split >= 0) {
      key = line.subarray(0, split);
      value = line.subarray(split + format.keySeparator.length);
    }
  }
  return {
    key,
    value,
    ...(format.headers.length > 0 ? { headers: format.headers } : {}),
    ...(format.partition !== undefined ? { partition: format.partition } : {}),
  };
}

/**
 * The separator's bytes. `\t` in the flag's value means a tab, because typing a real tab into a
 * shell command is awkward; everything else is taken literally.
 */
export function keySeparatorBytes(text: string): Buffer {
  return Buffer.from(text.replaceAll('\\t', '\t'), 'utf8');
}
