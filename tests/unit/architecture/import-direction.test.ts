import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// The layout's one rule between folders: the entry points (functions/, events/) build on shared/, never the other
// way round, so the core can be read, tested and bundled without the route or consumer tables.
const ROOT = resolve(import.meta.dirname, '..', '..', '..');
const IMPORT = /(?:import|export)\s[^'"]*?from\s+'([^']+)'|import\(\s*'([^']+)'\s*\)/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)));
}

/** Every relative import of a file, as a path from the root. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  return [...text.matchAll(IMPORT)]
    .map((m) => m[1] ?? m[2]!)
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => relative(ROOT, resolve(ROOT, dirname(file), specifier)));
}

const upward = (file: string, into: string[]) =>
  importsOf(file)
    .filter((target) => into.some((dir) => target.startsWith(`${dir}/`)))
    .map((target) => `${file} → ${target}`);

describe('import direction', () => {
  it('finds the core files it checks', () => {
    expect(sourceFiles('shared').length).toBeGreaterThan(50);
  });

  it('nothing in shared/ imports functions/, events/, scripts/ or infra/', () => {
    const offending = sourceFiles('shared').flatMap((file) =>
      upward(file, ['functions', 'events', 'scripts', 'infra']),
    );
    expect(offending).toEqual([]);
  });

  it('the core does not import the HTTP layer', () => {
    // shared/http (pipeline, replies, route types) and the request-side auth and routing build on the core; the
    // schema helpers the core shares with them (text rules, paging, OpenAPI notes) live in shared/schema.
    const core = ['shared/domain', 'shared/db', 'shared/schema', 'shared/media', 'shared/webhooks', 'shared/events'];
    const offending = core.flatMap(sourceFiles).flatMap((file) => upward(file, ['shared/http']));
    expect(offending).toEqual([]);
  });

  it('shared/db and the webhook protocol do not import a domain area', () => {
    const offending = [
      ...sourceFiles('shared/db'),
      ...sourceFiles('shared/webhooks'),
      ...sourceFiles('shared/schema'),
    ].flatMap((file) => upward(file, ['shared/domain']));
    expect(offending).toEqual([]);
  });

  it('handlers and consumers do not import each other', () => {
    expect(sourceFiles('functions').flatMap((file) => upward(file, ['events']))).toEqual([]);
    expect(sourceFiles('events').flatMap((file) => upward(file, ['functions']))).toEqual([]);
  });

  it("areas of the core reach each other's data through their services, never another area's store", () => {
    // media/ is the shared media lifecycle (transitions of images and pet media alike), used by both by design;
    // the delivery worker reads the endpoint owner's account for the disable e-mail (docs/ARCHITECTURE.md).
    const allowed = new Set(['shared/domain/webhooks/deliver.ts → shared/domain/accounts/store.ts']);
    const areaOf = (path: string) => path.split('/')[2];
    const crossings = sourceFiles('shared/domain').flatMap((file) =>
      importsOf(file)
        .filter((target) => /^shared\/domain\/[^/]+\/([a-z-]+-)?store\.ts$/.test(target))
        .filter((target) => areaOf(target) !== areaOf(file) && areaOf(target) !== 'media')
        .map((target) => `${file} → ${target}`),
    );
    expect(crossings.filter((c) => !allowed.has(c))).toEqual([]);
  });
});
