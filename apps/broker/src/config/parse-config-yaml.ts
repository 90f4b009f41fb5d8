import { type Document, isAlias, isMap, isScalar, isSeq, LineCounter, type Node, parseDocument } from 'yaml';
import type { ConfigError } from './config-error';
import type { ConfigOverride } from './config-layers';

/** The key under which problems with the file as a whole are reported (its flag is `--config`). */
export const CONFIG_FILE_KEY = 'config';

export type ParsedConfigFile =
  | { ok: true; overrides: ConfigOverride[] }
  | { ok: false; errors: ConfigError[] };

/**
 * Parses a YAML configuration file into one override per leaf setting, each remembering its line so
 * a bad value can be found in the file. A syntax error names the file, line and column. An empty
 * value (`key:` or `key: null`) means "not set", so the default applies.
 */
export function parseConfigYaml(text: string, fileName: string): ParsedConfigFile {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  if (document.errors.length > 0) {
    return {
      ok: false,
      errors: document.errors.map((error) => {
        const { line, col } = lineCounter.linePos(error.pos[0]);
        return {
          key: CONFIG_FILE_KEY,
          source: 'file',
          reason: `YAML syntax error in ${fileName} at line ${line}, column ${col}: ${error.message}`,
        };
      }),
    };
  }
  const root = document.contents;
  if (root === null || (isScalar(root) && root.value === null)) return { ok: true, overrides: [] };
  if (!isMap(root)) {
    return {
      ok: false,
      errors: [
        {
          key: CONFIG_FILE_KEY,
          source: 'file',
          reason: `${fileName} must hold a mapping of settings at the top level, not ${describeNode(root)}`,
        },
      ],
    };
  }
  const overrides: ConfigOverride[] = [];
  const at = (node: Node | null | undefined): string => {
    const offset = node?.range?.[0];
    return offset === undefined ? fileName : `${fileName} line ${lineCounter.linePos(offset).line}`;
  };
  const visit = (node: unknown, path: string[], keyNode: Node | null): void => {
    const target = isAlias(node) ? node.resolve(document) : node;
    if (isMap(target)) {
      for (const pair of target.items) {
        const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
        visit(pair.value, [...path, key], isScalar(pair.key) ? pair.key : null);
      }
      return;
    }
    const value = toValue(target, document);
    if (value === null || value === undefined) return;
    overrides.push({ path, value, source: 'file', origin: at(keyNode) });
  };
  visit(root, [], null);
  return { ok: true, overrides };
}

function toValue(node: unknown, document: Document): unknown {
  if (isScalar(node)) return node.value;
  if (isSeq(node)) return node.toJS(document);
  return node ?? undefined;
}

function describeNode(node: Node): string {
  if (isSeq(node)) return 'a list';
  if (isScalar(node)) return `the value ${JSON.stringify(node.value)}`;
  return 'this kind of node';
}
