// A table's items as lines of DynamoDB JSON, `{"Item":{"pk":{"S":"…"},…}}` with binary values in base64: the line
// format of DynamoDB's own export to S3, so every type (sets, binary, numbers beyond a double) goes through exactly.
// Used by the operator's copy of a table (scripts/table.ts); nothing on a request path reads a whole table.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import * as z from 'zod/mini';
import { TABLE_KEY } from './table.ts';

/** A line longer than this is refused before it is parsed (an item is at most 400 KB; JSON escapes and base64 grow it). */
export const MAX_LINE_BYTES = 4 * 1024 * 1024;

type Item = Record<string, unknown>;
type AttributeJson =
  | { S: string }
  | { N: string }
  | { B: string }
  | { BOOL: boolean }
  | { NULL: true }
  | { SS: string[] }
  | { NS: string[] }
  | { BS: string[] }
  | { L: AttributeJson[] }
  | { M: Record<string, AttributeJson> };

const number = z.string().check(z.regex(/^-?\d+(\.\d+)?([eE][+-]?\d+)?$/));
const set = <T extends z.ZodMiniType>(member: T) => z.array(member).check(z.minLength(1));
const attribute: z.ZodMiniType<AttributeJson> = z.union([
  z.strictObject({ S: z.string() }),
  z.strictObject({ N: number }),
  z.strictObject({ B: z.base64() }),
  z.strictObject({ BOOL: z.boolean() }),
  z.strictObject({ NULL: z.literal(true) }),
  z.strictObject({ SS: set(z.string()) }),
  z.strictObject({ NS: set(number) }),
  z.strictObject({ BS: set(z.base64()) }),
  z.strictObject({
    get L() {
      return z.array(attribute);
    },
  }),
  z.strictObject({
    get M() {
      return z.record(z.string(), attribute);
    },
  }),
]);
const key = z.strictObject({ S: z.string().check(z.minLength(1)) });
const line = z.strictObject({
  Item: z.catchall(z.object({ [TABLE_KEY.partitionKey]: key, [TABLE_KEY.sortKey]: key }), attribute),
});

/** Binary values as base64 (JSON has no bytes); everything else as DynamoDB writes it. */
function toJson(value: AttributeValue): AttributeJson {
  if (value.B) return { B: Buffer.from(value.B).toString('base64') };
  if (value.BS) return { BS: value.BS.map((b) => Buffer.from(b).toString('base64')) };
  if (value.L) return { L: value.L.map(toJson) };
  if (value.M) return { M: mapValues(value.M, toJson) };
  return value as AttributeJson;
}

function fromJson(value: AttributeJson): AttributeValue {
  if ('B' in value) return { B: Buffer.from(value.B, 'base64') };
  if ('BS' in value) return { BS: value.BS.map((b) => Buffer.from(b, 'base64')) };
  if ('L' in value) return { L: value.L.map(fromJson) };
  if ('M' in value) return { M: mapValues(value.M, fromJson) };
  return value as AttributeValue;
}

const mapValues = <A, B>(record: Record<string, A>, f: (a: A) => B): Record<string, B> =>
  Object.fromEntries(Object.entries(record).map(([k, v]) => [k, f(v)]));

/**
 * An item as read by a document client that keeps numbers as written (`wrapNumbers`), as one line (no newline).
 * The same client writes `parseItemLine`'s result back.
 */
export function itemLine(item: Item): string {
  return JSON.stringify({ Item: mapValues(marshall(item), toJson) });
}

/** One line back into an item for a document client that writes numbers as given; throws what is wrong with it. */
export function parseItemLine(text: string): Item {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error('not JSON');
  }
  const parsed = z.safeParse(line, json);
  if (!parsed.success)
    throw new Error(
      `not {"Item": {…}} in DynamoDB JSON with string keys ${TABLE_KEY.partitionKey} and ${TABLE_KEY.sortKey}`,
    );
  const attributes = mapValues(parsed.data.Item as Record<string, AttributeJson>, fromJson);
  return unmarshall(attributes, { wrapNumbers: true });
}

/** Numbers stay as DynamoDB holds them: read into NumberValue, written back as the same digits. */
export const EXACT_NUMBERS = {
  marshallOptions: { convertClassInstanceToMap: false },
  unmarshallOptions: { wrapNumbers: true },
} as const;

/** The lines of `chunks` (a file's stream), one at a time, refusing any longer than `maxBytes`: memory stays bounded. */
export async function* boundedLines(
  chunks: AsyncIterable<Buffer>,
  maxBytes = MAX_LINE_BYTES,
): AsyncGenerator<{ number: number; text: string }> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let number = 0;
  for await (const chunk of chunks) {
    let start = 0;
    for (let end = chunk.indexOf(10); end !== -1; end = chunk.indexOf(10, start)) {
      const text = Buffer.concat([...pending, chunk.subarray(start, end)]).toString('utf8');
      pending = [];
      pendingBytes = 0;
      number += 1;
      if (Buffer.byteLength(text) > maxBytes) throw new Error(`line ${number} is longer than ${maxBytes} bytes`);
      if (text.trim() !== '') yield { number, text };
      start = end + 1;
    }
    pending.push(chunk.subarray(start));
    pendingBytes += chunk.length - start;
    if (pendingBytes > maxBytes) throw new Error(`line ${number + 1} is longer than ${maxBytes} bytes`);
  }
  const last = Buffer.concat(pending).toString('utf8');
  if (last.trim() !== '') yield { number: number + 1, text: last };
}
