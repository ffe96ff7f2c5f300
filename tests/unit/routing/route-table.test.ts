import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fallbackRoute, routes } from '../../../functions/routes.ts';
import type { RouteDef } from '../../../shared/http/route-def.ts';

const FUNCTIONS = join(import.meta.dirname, '..', '..', '..', 'functions');

function handlerFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return handlerFiles(path);
    // routes.ts files hold the table (the whole of it at the top, an area's below) and responses.ts files the
    // response schemas for the OpenAPI document, not handlers.
    return entry.name.endsWith('.ts') && entry.name !== 'routes.ts' && entry.name !== 'responses.ts'
      ? [relative(FUNCTIONS, path).replace(/\.ts$/, '')]
      : [];
  });
}

describe('the route table', () => {
  const all = [...routes, fallbackRoute];

  it('has unique ids and unique method + path pairs', () => {
    expect(new Set(all.map((r) => r.id)).size).toBe(all.length);
    expect(new Set(routes.map((r) => `${r.method} ${r.path}`)).size).toBe(routes.length);
  });

  it('names a handler file for every route, and every handler file has a route', () => {
    for (const route of all) expect(existsSync(join(FUNCTIONS, `${route.entry}.ts`)), route.entry).toBe(true);
    expect(handlerFiles(FUNCTIONS).sort()).toEqual(all.map((r) => r.entry).sort());
  });

  it('follows the mechanical naming: functions/<domain>/<verb-noun>', () => {
    for (const route of all) expect(route.entry).toMatch(/^[a-z]+(-[a-z]+)*\/[a-z]+(-[a-z]+)+$/);
  });

  // Transforming every handler's module graph takes seconds on a busy 2-core machine.
  it('exports a handler from every entry', { timeout: 60_000 }, async () => {
    for (const route of all) {
      const mod = (await import(join(FUNCTIONS, `${route.entry}.ts`))) as { handler?: unknown };
      expect(typeof mod.handler, route.entry).toBe('function');
    }
  });

  it('declares table writes only on routes that change data (or, on a GET, cache a model answer)', () => {
    for (const route of routes) {
      const access = route.access as { table?: string; visionModel?: string };
      if (route.method === 'GET' && !access.visionModel) expect(access.table, route.id).not.toBe('write');
    }
  });

  // A handler's bundle holds what it imports: its area's entries, not the whole table.
  it("keeps each area's entries in functions/<area>/routes.ts, and every one of them in the table", async () => {
    const areas = readdirSync(FUNCTIONS, { withFileTypes: true }).filter((entry) => entry.isDirectory());
    const declared: RouteDef[] = [];
    for (const { name } of areas) {
      const area = (await import(join(FUNCTIONS, name, 'routes.ts'))) as Record<string, unknown>;
      const tables = Object.values(area).filter((value): value is RouteDef[] => Array.isArray(value));
      for (const route of tables.flat()) expect(route.entry.startsWith(`${name}/`), route.id).toBe(true);
      declared.push(...tables.flat());
    }
    expect(declared.map((r) => r.id).sort()).toEqual(routes.map((r) => r.id).sort());
  });

  it('looks routes up in their own area: only the fallback imports the whole table (for the Allow header)', () => {
    for (const route of all) {
      const source = readFileSync(join(FUNCTIONS, `${route.entry}.ts`), 'utf8');
      expect(/from '\.\.\/routes\.ts'/.test(source), route.entry).toBe(route === fallbackRoute);
    }
  });
});
