// The manifest of an attributed photo set (`npm run images:import -- <file>`): JSON (an array of rows) or CSV (a header
// row, then one row per photo; list fields separated by `;`). Every row is validated before anything is imported, and
// a row without an acceptable licence is refused: the public library only holds photos it may show to everyone.
import * as z from 'zod/mini';
import { MAX_PUBLIC_TAGS } from '../../shared/domain/images/publishing.ts';
import { SPECIES } from '../../shared/domain/reference/species.ts';
import { describeIssue } from '../../shared/http/validation.ts';

/** A manifest larger than this is refused before it is parsed. */
export const MAX_MANIFEST_BYTES = 10 * 1024 * 1024;
export const MAX_MANIFEST_ROWS = 10_000;

/**
 * Licences a public photo may carry: Creative Commons CC0 and BY / BY-SA (any version) as SPDX ids, or the URL of such a
 * licence. Non-commercial (NC) and no-derivatives (ND) licences are refused: the API serves photos to commercial
 * integrators and resizes them.
 */
const SPDX_LICENCE = /^(CC0-1\.0|CC-BY-(SA-)?(1\.0|2\.0|2\.5|3\.0|4\.0))$/;
const LICENCE_URL =
  /^https:\/\/creativecommons\.org\/(publicdomain\/zero\/1\.0|licenses\/by(-sa)?\/(1\.0|2\.0|2\.5|3\.0|4\.0))\/?$/;

const httpUrl = (max: number) =>
  z.string().check(
    z.maxLength(max),
    z.refine((v) => /^https?:\/\/[^\s]+$/.test(v), 'must be an http(s) URL'),
  );
const tagList = <T extends z.ZodMiniType>(item: T) => z._default(z.array(item).check(z.maxLength(MAX_PUBLIC_TAGS)), []);

export const manifestRow = z
  .strictObject({
    /** A local file (relative to the manifest's folder) or an http(s) URL to fetch: exactly one. */
    file: z.optional(z.string().check(z.minLength(1), z.maxLength(1000))),
    url: z.optional(httpUrl(2000)),
    author: z.string().check(z.trim(), z.minLength(1), z.maxLength(200)),
    licence: z.string().check(
      z.trim(),
      z.refine(
        (v) => SPDX_LICENCE.test(v) || LICENCE_URL.test(v),
        // describeIssue puts the field's name in front ("licence must be …")
        'must be CC0-1.0, CC-BY-x or CC-BY-SA-x (SPDX) or such a licence URL at creativecommons.org; NC and ND licences and unlicensed photos are refused',
      ),
    ),
    source_url: httpUrl(2000),
    species_id: z.enum(SPECIES),
    breed_ids: tagList(z.string().check(z.minLength(1), z.maxLength(100))),
    colour_ids: tagList(z.string().check(z.minLength(1), z.maxLength(100))),
    category_ids: tagList(z.int().check(z.gte(1))),
  })
  .check(
    z.refine((row) => (row.file === undefined) !== (row.url === undefined), {
      message: 'give exactly one of file and url',
    }),
  );
export type ManifestRow = z.output<typeof manifestRow>;

export interface ValidatedManifest {
  rows: { line: number; row: ManifestRow }[];
  refused: { line: number; problems: string[] }[];
}

/** Parses and validates a manifest's text; `csv` picks the format. Rows are numbered as the operator sees them. */
export function readManifest(text: string, format: 'json' | 'csv'): ValidatedManifest {
  if (Buffer.byteLength(text) > MAX_MANIFEST_BYTES)
    throw new Error(`the manifest is larger than ${MAX_MANIFEST_BYTES / 1024 / 1024} MB: split it`);
  const records = format === 'json' ? jsonRecords(text) : csvRecords(text);
  if (records.length > MAX_MANIFEST_ROWS)
    throw new Error(`the manifest has ${records.length} rows; at most ${MAX_MANIFEST_ROWS} per run: split it`);
  const manifest: ValidatedManifest = { rows: [], refused: [] };
  for (const { line, record } of records) {
    const parsed = z.safeParse(manifestRow, record);
    if (parsed.success) manifest.rows.push({ line, row: parsed.data });
    else manifest.refused.push({ line, problems: parsed.error.issues.flatMap((i) => describeIssue(i, 'body')) });
  }
  return manifest;
}

function jsonRecords(text: string): { line: number; record: unknown }[] {
  const data: unknown = JSON.parse(text);
  if (!Array.isArray(data)) throw new Error('a JSON manifest is an array of rows');
  return data.map((record, i) => ({ line: i + 1, record }));
}

const LIST_FIELDS = new Set(['breed_ids', 'colour_ids', 'category_ids']);

/** CSV as RFC 4180 writes it (quoted fields may hold commas, quotes doubled, line breaks); empty cells are absent. */
function csvRecords(text: string): { line: number; record: Record<string, unknown> }[] {
  const table = parseCsv(text.replace(/^\uFEFF/, ''));
  const [header, ...rows] = table;
  if (!header) return [];
  const names = header.map((h) => h.trim());
  return rows
    .map((cells, i) => ({ line: i + 2, cells }))
    .filter(({ cells }) => cells.some((c) => c.trim() !== ''))
    .map(({ line, cells }) => {
      const record: Record<string, unknown> = {};
      names.forEach((name, i) => {
        const cell = (cells[i] ?? '').trim();
        if (cell === '') return;
        if (!LIST_FIELDS.has(name)) record[name] = cell;
        else {
          const items = cell
            .split(';')
            .map((v) => v.trim())
            .filter(Boolean);
          record[name] = name === 'category_ids' ? items.map((v) => (/^\d+$/.test(v) ? Number(v) : v)) : items;
        }
      });
      return { line, record };
    });
}

function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"' && cell === '') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += c;
  }
  if (cell !== '' || row.length > 0) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}
