/** One server-sent event: its type (`message` unless named) and its data lines joined. */
export interface SseEvent {
  event: string;
  data: string;
}

/**
 * Splits a text/event-stream body into events as they arrive. tRPC writes one `data:` line per
 * event, JSON with no raw newlines, so only the fields it uses are handled.
 */
export async function* readSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
      }
      if (data.length > 0 || event !== 'message') yield { event, data: data.join('\n') };
    }
  }
}
