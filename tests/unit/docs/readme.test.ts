// README.md is what a newcomer follows: its figures come from the data and the route table, and this keeps them so.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { routes } from '../../../functions/routes.ts';
import { buildPostings } from '../../../shared/domain/images/catalogue-index.ts';
import { catalogueImages, facetContext } from '../../../shared/domain/images/seed.ts';
import { recordCount, REFERENCE_DATA } from '../../../shared/domain/reference/seed.ts';
import type { ReferenceSet } from '../../../shared/domain/reference/snapshot-store.ts';
import type { AuthMode, RouteDef } from '../../../shared/http/route-def.ts';

const readme = readFileSync(join(import.meta.dirname, '..', '..', '..', 'README.md'), 'utf8');

/** The text of a `###` section, up to the next heading. */
function section(title: string): string {
  const start = readme.indexOf(`### ${title}\n`);
  expect(start, `README section "${title}"`).toBeGreaterThan(-1);
  const rest = readme.slice(start + title.length + 5);
  return rest.slice(0, rest.search(/^#{2,3} /m) >>> 0);
}

/** Rows of the markdown tables in `text`, as trimmed cells (separator rows left out). */
const tableRows = (text: string) =>
  text
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|[\s-|]+\|$/.test(line))
    .map((line) =>
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );

/** `METHOD /path` of every route named in backticks in a cell. */
const routesIn = (cell: string) => [...cell.matchAll(/`((?:GET|POST|PATCH|PUT|DELETE) \/[^`]*)`/g)].map((m) => m[1]!);
const name = (r: { method: string; path: string }) => `${r.method} ${r.path}`;
const table: readonly RouteDef[] = routes;

/** The number in `text` that `pattern` captures, with thousands separators dropped. */
function figure(text: string, pattern: RegExp): number {
  const match = text.match(pattern);
  expect(match, String(pattern)).not.toBeNull();
  return Number(match![1]!.replace(/,/g, ''));
}

describe('README.md', () => {
  it("shows the start banner's reference data and catalogue lines as the data gives them", () => {
    const sets = Object.keys(REFERENCE_DATA) as ReferenceSet[];
    const images = catalogueImages();
    const facets = buildPostings(images, facetContext()).size;

    expect(readme).toContain(`Reference data ${sets.map((set) => `${set} ${recordCount(set)}`).join(', ')}\n`);
    expect(readme).toContain(`Images         ${images.length} catalogue images (${facets} facets)`);
  });

  it('gives the reference data section the counts of the committed data', () => {
    const text = section('Reference data');
    const breeds = REFERENCE_DATA.breeds as { species_id: string; extinct: boolean }[];
    const laws = REFERENCE_DATA.legislation as { country_code: string }[];

    expect(figure(text, /Breeds \((\d+):/)).toBe(recordCount('breeds'));
    expect(figure(text, /(\d+) cats/)).toBe(breeds.filter((b) => b.species_id === 'cat').length);
    expect(figure(text, /(\d+) extinct dogs/)).toBe(breeds.filter((b) => b.species_id === 'dog' && b.extinct).length);
    expect(figure(text, /(\d+) categories/)).toBe(recordCount('categories'));
    expect(figure(text, /(\d+) sourced facts/)).toBe(recordCount('facts'));
    expect(figure(text, /(\d+)\s+sourced health tips/)).toBe(recordCount('health-tips'));
    expect(figure(text, /(\d+) breed laws/)).toBe(recordCount('legislation'));
    expect(figure(text, /breed laws in (\d+) countries/)).toBe(new Set(laws.map((l) => l.country_code)).size);
    expect(figure(text, /([\d,]+)-image catalogue/)).toBe(catalogueImages().length);
  });

  it("names the credential of every route as the route table's auth column does", () => {
    const rows = tableRows(section('Which credential each route takes'));
    const listed = new Map(rows.map(([mode, , cell]) => [mode!.replace(/`/g, '') as AuthMode, routesIn(cell!)]));

    // Every mode but the API key lists its routes in full; the API key row names a few and says "every other route".
    for (const mode of ['none', 'bearer', 'apiKeyOrBearer', 'admin', 'vet'] as const)
      expect(listed.get(mode)?.sort(), mode).toEqual(
        routes
          .filter((r) => r.auth === mode)
          .map(name)
          .sort(),
      );
    const apiKeyRow = rows.find(([mode]) => mode === '`apiKey`');
    expect(apiKeyRow?.[2]).toContain('every other route');
    for (const example of listed.get('apiKey') ?? [])
      expect(routes.find((r) => name(r) === example)?.auth, example).toBe('apiKey');
  });

  it('lists every analysis and calculator route with the account feature the route table gives it', () => {
    const rows = tableRows(section('Photo analysis and calculators')).filter(([cell]) => routesIn(cell!).length > 0);
    const documented = new Map(rows.map(([cell, feature]) => [routesIn(cell!)[0]!, feature!.replace(/`/g, '')]));
    const gated = table.filter(
      (r) =>
        /^(analysis|calculators)\//.test(r.entry) || r.feature === 'body_condition' || r.feature === 'respiratory_rate',
    );

    expect([...documented.keys()].sort()).toEqual(gated.map(name).sort());
    for (const r of gated) expect(documented.get(name(r)), name(r)).toBe(r.feature ?? 'none');
  });

  it('runs the operator scripts with npm run -s, so what they print on stdout is the JSON alone', () => {
    const scriptRuns = readme.match(/npm run (?:-s )?(?:accounts|images:import|migrate)\b.*--/g) ?? [];

    expect(scriptRuns.length).toBeGreaterThan(10);
    for (const run of scriptRuns) expect(run).toMatch(/^npm run -s /);
  });
});
