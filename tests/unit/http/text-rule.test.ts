// Every string a request can carry, on every route of the route table, obeys the one text rule (shared/schema/params.ts
// `text()`): found by walking the request schemas, so a new field or route is checked without touching this test.
import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { loadContracts } from '../../../scripts/openapi/document.ts';
import { hasForbiddenCharacters, text } from '../../../shared/schema/params.ts';

type Schema = z.ZodMiniType;
type Def = {
  type: string;
  shape?: Record<string, Schema>;
  innerType?: Schema;
  in?: Schema;
  element?: Schema;
  options?: Schema[];
  valueType?: Schema;
};

const defOf = (schema: Schema) => schema._zod.def as Def;

/** Whether a field's schema reads a string (through wrappers, pipes and unions), not stopping inside an object. */
function readsString(schema: Schema): boolean {
  const def = defOf(schema);
  if (def.type === 'string') return true;
  const inner = def.innerType ?? def.in;
  if (inner) return readsString(inner);
  return def.options?.some(readsString) ?? false;
}

/** Each place of a request schema that takes a string, by its dotted name, with the schema of that value. */
function* stringFields(schema: Schema, name: string): Generator<[string, Schema]> {
  const def = defOf(schema);
  if (def.shape) {
    for (const [key, field] of Object.entries(def.shape)) yield* stringFields(field, name ? `${name}.${key}` : key);
  } else if (def.element) yield* stringFields(def.element, `${name}[]`);
  else if (def.valueType) yield* stringFields(def.valueType, `${name}{}`);
  else if (def.innerType ?? def.in) {
    if (readsString(schema)) yield [name, schema];
    else yield* stringFields((def.innerType ?? def.in)!, name);
  } else if (def.options) for (const option of def.options) yield* stringFields(option, name);
  else if (def.type === 'string') yield [name, schema];
}

/** What the rule refuses: controls, unpaired surrogates of both kinds, noncharacters of the BMP and of other planes. */
const FORBIDDEN = ['\u0000', '\u001b', '\u007f', '\ud83d', '\udc36', '\ufdd0', '\ufffe', '\uffff', '\u{1fffe}'];

describe('the one text rule', () => {
  it('refuses controls, unpaired surrogates and noncharacters, and takes emoji and every other character', () => {
    for (const c of FORBIDDEN) expect(hasForbiddenCharacters(`a${c}b`), JSON.stringify(c)).toBe(true);
    for (const ok of ['Bella 🐶', 'Zoë', '中文', '\u{10fffd}', '\ufffd'])
      expect(hasForbiddenCharacters(ok)).toBe(false);
  });

  it('lets prose hold tab and line breaks, and nothing else it refuses', () => {
    const prose = text({ max: 100, lineBreaks: true });

    expect(z.safeParse(prose, 'Friendly.\r\n\tLoves walks.').success).toBe(true);
    for (const c of FORBIDDEN) expect(z.safeParse(prose, `a${c}b`).success, JSON.stringify(c)).toBe(false);
  });

  it('holds for every string field of every request schema of the route table', async () => {
    const contracts = await loadContracts();
    const accepted: string[] = [];
    let fields = 0;
    for (const contract of contracts) {
      const parts = {
        params: contract.params,
        query: contract.query,
        body: contract.body,
        form: contract.form?.fields,
      };
      for (const [part, schema] of Object.entries(parts)) {
        if (!schema) continue;
        for (const [name, field] of stringFields(schema, '')) {
          fields++;
          for (const c of FORBIDDEN)
            if (z.safeParse(field, `ab${c}cd`).success)
              accepted.push(`${contract.route.id} ${part} ${name} takes ${JSON.stringify(c)}`);
        }
      }
    }

    expect(fields).toBeGreaterThan(150);
    expect(accepted).toEqual([]);
  });
});
