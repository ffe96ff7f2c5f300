import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import type { AppError } from '../../../shared/errors.ts';
import { MAX_OFFSET, MAX_PAGE } from '../../../shared/schema/paging.ts';
import { offsetQuery, pageQuery } from '../../../shared/domain/reference/list-query.ts';
import { boolean, caseInsensitiveEnum, integer, list, MAX_LIST_ITEMS } from '../../../shared/schema/params.ts';
import { parseOrThrow } from '../../../shared/http/validation.ts';

const query = z.strictObject({
  limit: z._default(integer({ min: 1, max: 100 }), 10),
  page: z.optional(integer({ min: 0 })),
  order: z.optional(caseInsensitiveEnum(['ASC', 'DESC', 'RANDOM'])),
  include_sources: z.optional(boolean()),
  breed_groups: z.optional(list()),
});

function messagesOf(input: Record<string, string>): string[] {
  try {
    parseOrThrow(query, input, 'query');
  } catch (error) {
    return (error as AppError).messages as string[];
  }
  throw new Error('expected a validation error');
}

describe('query validation', () => {
  it('coerces and defaults valid parameters', () => {
    expect(
      parseOrThrow(
        query,
        { page: '2', order: 'desc', include_sources: 'TRUE', breed_groups: 'Toy, Working,' },
        'query',
      ),
    ).toEqual({
      limit: 10,
      page: 2,
      order: 'DESC',
      include_sources: true,
      breed_groups: ['Toy', 'Working'],
    });
  });

  it('names each problem in its own message', () => {
    expect(messagesOf({ limit: '101', page: '-1', order: 'up', include_sources: 'yes' })).toEqual([
      'limit must be at most 100',
      'page must be at least 0',
      'order must be one of: ASC, DESC, RANDOM',
      'include_sources must be true or false',
    ]);
  });

  it('rejects non-integer numbers', () => {
    expect(messagesOf({ limit: '1.5' })).toEqual(['limit must be an integer']);
    expect(messagesOf({ limit: 'ten' })).toEqual(['limit must be an integer']);
  });

  it('rejects unknown and misspelled parameters by name', () => {
    expect(messagesOf({ limt: '5', foo: 'bar' })).toEqual([
      "unknown query parameter 'limt'",
      "unknown query parameter 'foo'",
    ]);
  });

  it('lists the first 20 problems and counts the rest, however many unknown fields arrive', () => {
    const input = Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`field${i}`, 'x']));
    let error: AppError | undefined;
    try {
      parseOrThrow(query, input, 'query');
    } catch (e) {
      error = e as AppError;
    }

    expect(error!.messages).toHaveLength(21);
    expect((error!.messages as string[])[20]).toBe('…and 99980 more problems');
    expect(error!.details).toEqual({ problem_count: 100_000 });
    expect(JSON.stringify(error!.messages).length).toBeLessThan(2000);
  });

  it('cuts a long field name it quotes back to 200 characters', () => {
    const [message] = messagesOf({ ['n'.repeat(1_000_000)]: 'x' });
    expect(message).toBe(`unknown query parameter '${'n'.repeat(200)}…'`);
  });

  it('throws a 400 AppError', () => {
    expect(() => parseOrThrow(query, { limit: '0' }, 'query')).toThrow(expect.objectContaining({ status: 400 }));
  });
});

describe('depth of lists', () => {
  const paged = z.strictObject(pageQuery({ defaultLimit: 10, maxLimit: 100 }));
  const offset = z.strictObject(offsetQuery);
  const problems = (schema: z.ZodMiniType, input: Record<string, string>) => {
    try {
      parseOrThrow(schema, input, 'query');
      return [];
    } catch (error) {
      return (error as AppError).messages;
    }
  };

  it(`serves pages up to ${MAX_PAGE} and offsets up to ${MAX_OFFSET}, no deeper`, () => {
    expect(problems(paged, { page: String(MAX_PAGE) })).toEqual([]);
    expect(problems(paged, { page: String(MAX_PAGE + 1) })).toEqual([`page must be at most ${MAX_PAGE}`]);
    expect(problems(paged, { page: '9'.repeat(1000) })).toEqual(['page must be at most 20 characters long']);
    expect(problems(offset, { offset: String(MAX_OFFSET + 1) })).toEqual([`offset must be at most ${MAX_OFFSET}`]);
  });

  it(`takes at most ${MAX_LIST_ITEMS} entries in a comma-separated list`, () => {
    const groups = (n: number) => Array.from({ length: n }, () => 'x').join(',');
    expect(problems(paged, { breed_groups: groups(MAX_LIST_ITEMS) })).toEqual([]);
    expect(problems(paged, { breed_groups: groups(MAX_LIST_ITEMS + 1) })).toEqual([
      `breed_groups must contain at most ${MAX_LIST_ITEMS} items`,
    ]);
  });
});
