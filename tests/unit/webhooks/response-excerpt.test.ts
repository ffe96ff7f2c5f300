import { describe, expect, it } from 'vitest';
import { BodyPrefix, EXCERPT_BYTES } from '../../../shared/webhooks/response-excerpt.ts';

const excerptOf = (chunks: Buffer[], headers: Record<string, string | string[]> = {}) => {
  const prefix = new BodyPrefix();
  for (const chunk of chunks) prefix.add(chunk);
  return prefix.excerpt(headers);
};

describe("the delivery log's excerpt of a reply", () => {
  it('keeps a short text body whole, across chunks that split a character', () => {
    const body = Buffer.from('{"error":"café 🐶"}');
    expect(excerptOf([body.subarray(0, 15), body.subarray(15)])).toEqual({
      headers: {},
      body: '{"error":"café 🐶"}',
      body_binary: false,
      body_truncated: false,
    });
  });

  it('cuts at 4 KiB before a character the cut would split, and says it was cut', () => {
    const body = Buffer.from(`${'a'.repeat(EXCERPT_BYTES - 2)}é🐶 more`);
    expect(excerptOf([body])).toMatchObject({ body: `${'a'.repeat(EXCERPT_BYTES - 2)}é`, body_truncated: true });
    const exact = Buffer.from('b'.repeat(EXCERPT_BYTES));
    expect(excerptOf([exact])).toMatchObject({ body: 'b'.repeat(EXCERPT_BYTES), body_truncated: false });
  });

  it('notes a body that is not UTF-8 text as binary and shows none of it', () => {
    for (const bytes of [Buffer.from([0xff, 0xfe, 0x00, 0x41]), Buffer.from('PK\u0003\u0004zip')]) {
      expect(excerptOf([bytes])).toEqual({ headers: {}, body: null, body_binary: true, body_truncated: false });
    }
    expect(excerptOf([])).toEqual({ headers: {}, body: null, body_binary: false, body_truncated: false });
  });

  it('keeps only the headers that explain a failure, each bounded', () => {
    const headers = { 'retry-after': '30', location: `https://x/${'p'.repeat(300)}`, 'set-cookie': ['a=1'] };
    const { headers: kept } = excerptOf([Buffer.from('x')], headers);
    expect(Object.keys(kept).sort()).toEqual(['location', 'retry-after']);
    expect(kept.location).toHaveLength(256);
  });
});
