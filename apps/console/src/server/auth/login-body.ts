/**
 * The most bytes a login body may have: a username (256 characters) and a password (1024), as
 * JSON with room to spare. Anything larger is refused before it is read.
 */
export const MAX_LOGIN_BODY_BYTES = 16 * 1024;

/** A body that was read, or the response refusing it. */
export type BodyRead =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly response: Response };

function refusal(status: number, code: string, message: string): BodyRead {
  return { ok: false, response: Response.json({ message, code, issues: [] }, { status }) };
}

/**
 * Reads the body of a request nobody has authenticated yet: only `application/json` (415
 * otherwise, so a cross-site form, which can only send form encodings or text/plain, cannot post
 * here), at most `maxBytes` (413, from Content-Length before anything is read, or as soon as the
 * bytes streamed go past it).
 */
export async function readJsonBody(request: Request, maxBytes = MAX_LOGIN_BODY_BYTES): Promise<BodyRead> {
  const mediaType = request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
  if (mediaType !== 'application/json') {
    return refusal(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the body as application/json.');
  }
  const tooLarge = () => refusal(413, 'PAYLOAD_TOO_LARGE', `The body may have at most ${maxBytes} bytes.`);
  const declared = request.headers.get('content-length');
  if (declared !== null && !(Number(declared) <= maxBytes)) return tooLarge();
  if (request.body === null) return { ok: true, text: '' };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      return tooLarge();
    }
    chunks.push(value);
  }
  return { ok: true, text: Buffer.concat(chunks).toString('utf8') };
}
