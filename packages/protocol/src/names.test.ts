import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as root from './index';
import * as names from './names';

const sourceDir = dirname(fileURLToPath(import.meta.url));

/** The modules the walk reached, the imports of theirs that are not relative, and Node.js globals they use. */
interface ImportWalk {
  readonly visited: readonly string[];
  readonly foreignImports: readonly string[];
  readonly nodeGlobals: readonly string[];
}

/** Names that exist in Node.js but not in a browser (a bundler would have to polyfill them). */
const NODE_GLOBALS = new Set(['Buffer', 'process', 'require', 'module', '__dirname', '__filename', 'global']);

/**
 * Follows every import that survives compilation from `entry` (an `import type` or `export type`
 * is erased; `import { type A }` is not, under verbatimModuleSyntax). A relative import is walked
 * into; any other one (a Node.js built-in, a package) is recorded, since the browser bundle would
 * have to load it.
 */
function walkImports(entry: string): ImportWalk {
  const visited = new Set<string>();
  const foreignImports: string[] = [];
  const nodeGlobals: string[] = [];
  const pending = [resolve(sourceDir, entry)];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (visited.has(file)) continue;
    visited.add(file);
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
    for (const name of nodeGlobalsIn(source)) nodeGlobals.push(`${relative(sourceDir, file)} uses ${name}`);
    for (const statement of source.statements) {
      const specifier = runtimeSpecifier(statement);
      if (specifier === undefined) continue;
      if (specifier.startsWith('./') || specifier.startsWith('../')) {
        pending.push(`${resolve(dirname(file), specifier)}.ts`);
      } else {
        foreignImports.push(`${relative(sourceDir, file)} imports ${specifier}`);
      }
    }
  }
  return {
    visited: [...visited].map((file) => relative(sourceDir, file)).sort(),
    foreignImports,
    nodeGlobals,
  };
}

/** The Node.js globals a module uses in code that runs (types are erased, so they may name any). */
function nodeGlobalsIn(source: ts.SourceFile): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isTypeNode(node) || ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) return;
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) return;
    if (ts.isIdentifier(node) && NODE_GLOBALS.has(node.text) && !isMemberName(node)) found.push(node.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** `x.process`, `{ process: … }` or a method `require()`: a member called like a global, not the global. */
function isMemberName(identifier: ts.Identifier): boolean {
  const parent = identifier.parent;
  return (
    (ts.isPropertyAccessExpression(parent) ||
      ts.isPropertyAssignment(parent) ||
      ts.isMethodDeclaration(parent) ||
      ts.isPropertyDeclaration(parent)) &&
    parent.name === identifier
  );
}

function runtimeSpecifier(statement: ts.Statement): string | undefined {
  if (ts.isImportDeclaration(statement)) {
    if (statement.importClause?.isTypeOnly) return undefined;
    return (statement.moduleSpecifier as ts.StringLiteral).text;
  }
  if (ts.isExportDeclaration(statement) && statement.moduleSpecifier !== undefined) {
    if (statement.isTypeOnly) return undefined;
    return (statement.moduleSpecifier as ts.StringLiteral).text;
  }
  return undefined;
}

describe('the browser-safe entry (@weir/protocol/names)', () => {
  it('reaches no module outside the package and nothing from Node.js', () => {
    const walk = walkImports('names.ts');
    expect(walk.foreignImports).toEqual([]);
    expect(walk.nodeGlobals).toEqual([]);
    // The walk followed the re-exports into the modules that define the lists.
    expect(walk.visited).toEqual(
      expect.arrayContaining([
        'names.ts',
        join('client', 'acl', 'acl-types.ts'),
        join('client', 'auth', 'scram-mechanisms.ts'),
        join('records', 'batch-attributes.ts'),
      ]),
    );
  });

  it('would notice a module that needs Node.js', () => {
    const scram = join('client', 'auth', 'scram.ts');
    const walk = walkImports(scram);
    expect(walk.foreignImports).toContain(`${scram} imports node:crypto`);
    expect(walk.nodeGlobals).toContain(`${scram} uses Buffer`);
  });

  it('exports the same lists as the root entry, so the two cannot drift apart', () => {
    const exported = Object.entries(names);
    const rootExports = new Map<string, unknown>(Object.entries(root));
    expect(exported.length).toBeGreaterThan(0);
    for (const [name, value] of exported) {
      expect(rootExports.get(name), name).toBe(value);
    }
  });
});
