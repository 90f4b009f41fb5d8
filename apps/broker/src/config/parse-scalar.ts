const JSON_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

/**
 * Turns the text of an environment variable or `--set` value into a config value: JSON numbers and
 * booleans become numbers and booleans, a JSON string in double quotes becomes that string (the way
 * to pass `"123"` to a string setting), and anything else stays the text as written.
 */
export function parseScalar(text: string): string | number | boolean {
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (JSON_NUMBER.test(text)) {
    const value = Number(text);
    if (Number.isFinite(value)) return value;
  }
  if (text.length >= 2 && text.startsWith('"') && text.endsWith('"')) {
    try {
      const value: unknown = JSON.parse(text);
      if (typeof value === 'string') return value;
    } catch {
      // Not valid JSON after all (for example an unescaped quote inside): keep the text as written.
    }
  }
  return text;
}
