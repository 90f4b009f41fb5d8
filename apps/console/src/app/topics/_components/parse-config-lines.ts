/**
 * Custom topic configs are typed as `name=value` lines, the way they appear in Kafka's tools.
 * Blank lines and `#` comments are skipped. Returns the configs or the first bad line's message.
 */
export function parseConfigLines(text: string): { configs: Record<string, string> } | { error: string } {
  const configs: Record<string, string> = {};
  const lines = text.split('\n');
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const equals = line.indexOf('=');
    if (equals <= 0) return { error: `Line ${index + 1}: expected name=value` };
    configs[line.slice(0, equals).trim()] = line.slice(equals + 1).trim();
  }
  return { configs };
}
