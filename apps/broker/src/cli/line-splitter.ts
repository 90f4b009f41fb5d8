/**
 * Splits a byte stream into lines, as bytes: input need not be UTF-8, and a record's bytes are
 * produced exactly as read. A line ends at `\n`; a `\r` before it is dropped too, so files written
 * on Windows do not leave a stray `\r` at the end of every value. The last line needs no newline.
 */
export class LineSplitter {
  /** The start of a line whose end has not arrived yet. */
  #partial: Buffer[] = [];

  /** The lines completed by this chunk. They may be views into `chunk`, which streams never reuse. */
  push(chunk: Buffer): Buffer[] {
    const lines: Buffer[] = [];
    let start = 0;
    for (let end = chunk.indexOf(0x0a); end >= 0; end = chunk.indexOf(0x0a, start)) {
      const piece = chunk.subarray(start, end);
      const line = this.#partial.length === 0 ? piece : Buffer.concat([...this.#partial, piece]);
      this.#partial = [];
      lines.push(withoutCarriageReturn(line));
      start = end + 1;
    }
    if (start < chunk.length) this.#partial.push(chunk.subarray(start));
    return lines;
  }

  /** The last line, when the input did not end with a newline. */
  end(): Buffer[] {
    if (this.#partial.length === 0) return [];
    const line = Buffer.concat(this.#partial);
    this.#partial = [];
    return [withoutCarriageReturn(line)];
  }
}

function withoutCarriageReturn(line: Buffer): Buffer {
  return line.length > 0 && line[line.length - 1] === 0x0d ? line.subarray(0, line.length - 1) : line;
}
