import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const PACKAGE = join(import.meta.dirname, '..', '..', '..', 'clients', 'ts');
const SOURCES = join(PACKAGE, 'src');
const manifest = JSON.parse(readFileSync(join(PACKAGE, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
};

/** Every module specifier of a source file: static imports and exports, and dynamic imports. */
function specifiers(file: string): string[] {
  const text = readFileSync(join(SOURCES, file), 'utf8');
  return [...text.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map((m) => m[1]!);
}

const files = readdirSync(SOURCES).filter((f) => f.endsWith('.ts'));

describe('the client package (clients/ts)', () => {
  it('imports nothing outside its own folder', () => {
    const outside = files.flatMap((file) =>
      specifiers(file)
        .filter((s) => s.startsWith('.'))
        .filter((s) => relative(SOURCES, join(dirname(join(SOURCES, file)), s)).startsWith('..'))
        .map((s) => `${file}: ${s}`),
    );
    expect(outside).toEqual([]);
  });

  it('imports only packages it declares, and Node built-ins only in its Node entry (node.ts)', () => {
    const bare = files.flatMap((file) =>
      specifiers(file)
        .filter((s) => !s.startsWith('.'))
        .map((s) => ({ file, s })),
    );
    expect(bare.filter(({ s }) => !s.startsWith('node:') && !(s in manifest.dependencies))).toEqual([]);
    expect(new Set(bare.filter(({ s }) => s.startsWith('node:')).map(({ file }) => file))).toEqual(
      new Set(['node.ts']),
    );
  });
});
