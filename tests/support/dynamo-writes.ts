// What a handler asked DynamoDB to write, read back from a mocked document client by item key, so that tests state
// what was stored (items, attribute values) rather than expression text or an entry's position in a transaction.
import {
  BatchWriteCommand,
  DeleteCommand,
  type DynamoDBDocumentClient,
  PutCommand,
  TransactWriteCommand,
  type TransactWriteCommandInput,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { AwsClientStub } from 'aws-sdk-client-mock';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];
type Key = Record<string, unknown>;
type Values = Record<string, unknown>;
type Names = Record<string, string>;
type DocumentStub = AwsClientStub<DynamoDBDocumentClient>;

/**
 * What one update does, by attribute path (`#names` resolved, `a.b`, `a[0]`): the value a SET stores, `{ add: n }` for
 * ADD and for `x = x ± n`, `{ append: list }` for `list_append`, `{ ifAbsent: v }` for `if_not_exists`, and
 * `{ removed: true }` for REMOVE.
 */
type UpdatedAttributes = Record<string, unknown>;

/** One write to one item: a Put's whole item, an update's attributes, a delete, or a transaction's condition check. */
export interface Write {
  table: string | undefined;
  key: Key;
  put?: Values;
  update?: UpdatedAttributes;
  delete?: true;
  check?: true;
  /** Whether DynamoDB refuses the write unless a condition holds (what it holds on, tests show by refusing it)... */
  conditional: boolean;
  /** ...and the values that condition compares with (the account, the expected status, the revision read). */
  conditionValues: unknown[];
}

/** An item's key: pk and sk in the service's table, id in the request guards' table. */
const keyOfItem = ({ pk, sk, id }: Values): Key => (pk === undefined ? { id } : { pk, sk });

/** The item a transaction entry writes or checks, by its key: a Put's item carries it, the others name it. */
export const keyOf = (entry: TransactItem): Key =>
  entry.Put
    ? keyOfItem(entry.Put.Item ?? {})
    : (entry.Update?.Key ?? entry.Delete?.Key ?? entry.ConditionCheck?.Key ?? {});

export const sameKey = (a: Key, b: Key) =>
  [...new Set([...Object.keys(a), ...Object.keys(b)])].every((attribute) => a[attribute] === b[attribute]);

/** Splits at commas outside parentheses (`list_append(a, :b)` is one operand). */
const topLevelParts = (text: string) => {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (const [i, char] of [...text].entries()) {
    if (char === '(') depth++;
    if (char === ')') depth--;
    if (char === ',' && depth === 0) {
      parts.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  return [...parts, text.slice(start).trim()].filter(Boolean);
};

const operand = (value: string, values: Values) => {
  if (!value.startsWith(':')) throw new Error(`not a value placeholder: ${value}`);
  return values[value];
};

const setValue = (rhs: string, values: Values): unknown => {
  const call = /^(list_append|if_not_exists)\(\s*([^,]+),\s*(:\w+)\s*\)$/.exec(rhs);
  if (call) return call[1] === 'list_append' ? { append: values[call[3]!] } : { ifAbsent: values[call[3]!] };
  const arithmetic = /^\S+\s*([+-])\s*(:\w+)$/.exec(rhs);
  if (arithmetic) {
    const delta = values[arithmetic[2]!] as number;
    return { add: arithmetic[1] === '-' ? -delta : delta };
  }
  return operand(rhs, values);
};

/** A single write's input, or one entry of a transaction. */
interface Entry {
  TableName?: string | undefined;
  Key?: Key;
  Item?: Values;
  UpdateExpression?: string;
  ConditionExpression?: string;
  ExpressionAttributeNames?: Names;
  ExpressionAttributeValues?: Values;
}

/** Reads an UpdateExpression into the attributes it changes (the forms this codebase writes; anything else throws). */
export const updatedAttributes = ({
  UpdateExpression: expression = '',
  ExpressionAttributeNames: names = {},
  ExpressionAttributeValues: values = {},
}: Entry): UpdatedAttributes => {
  const path = (raw: string) => raw.trim().replace(/#\w+/g, (name) => names[name] ?? name);
  const changes: UpdatedAttributes = {};
  for (const [, action, body] of expression.matchAll(
    /\b(SET|REMOVE|ADD|DELETE)\b\s+(.*?)(?=\s+\b(?:SET|REMOVE|ADD|DELETE)\b|$)/gs,
  )) {
    for (const part of topLevelParts(body!)) {
      if (action === 'SET') {
        const [target, rhs] = part.split(/\s*=\s*(.*)/s);
        changes[path(target!)] = setValue(rhs!.trim(), values);
      } else if (action === 'REMOVE') {
        changes[path(part)] = { removed: true };
      } else {
        const [target, value] = part.split(/\s+/);
        changes[path(target!)] =
          action === 'ADD' ? { add: operand(value!, values) } : { deleted: operand(value!, values) };
      }
    }
  }
  return changes;
};

const write = (kind: 'put' | 'update' | 'delete' | 'check', entry: Entry): Write => {
  return {
    table: entry.TableName,
    key: entry.Item ? keyOfItem(entry.Item) : (entry.Key ?? {}),
    ...(kind === 'put' && { put: entry.Item }),
    ...(kind === 'update' && { update: updatedAttributes(entry) }),
    ...(kind === 'delete' && { delete: true as const }),
    ...(kind === 'check' && { check: true as const }),
    conditional: entry.ConditionExpression !== undefined,
    conditionValues: [...new Set(entry.ConditionExpression?.match(/:\w+/g))].map(
      (placeholder) => entry.ExpressionAttributeValues?.[placeholder],
    ),
  };
};

/** What a transaction does to each item, in no particular order (find an item's by its key). */
export const transactionWrites = (input: TransactWriteCommandInput): Write[] =>
  (input.TransactItems ?? []).map((entry) =>
    entry.Put
      ? write('put', entry.Put)
      : entry.Update
        ? write('update', entry.Update as Entry)
        : entry.Delete
          ? write('delete', entry.Delete)
          : write('check', entry.ConditionCheck as Entry),
  );

/**
 * Every write the mocked client was asked for to `table` (the service's table unless named; the request guards count
 * in their own), in call order: single commands, transactions and batches alike.
 */
export const allWrites = (ddb: DocumentStub, table = process.env.TABLE_NAME): Write[] =>
  everyWrite(ddb).filter((write) => write.table === table);

const everyWrite = (ddb: DocumentStub): Write[] =>
  ddb.calls().flatMap(({ args: [command] }) => {
    if (command instanceof PutCommand) return [write('put', command.input)];
    if (command instanceof UpdateCommand) return [write('update', command.input)];
    if (command instanceof DeleteCommand) return [write('delete', command.input)];
    if (command instanceof TransactWriteCommand) return transactionWrites(command.input);
    if (command instanceof BatchWriteCommand) {
      return Object.entries(command.input.RequestItems ?? {}).flatMap(([TableName, requests]) =>
        requests.map((request) =>
          request.PutRequest
            ? write('put', { TableName, ...request.PutRequest })
            : write('delete', { TableName, ...request.DeleteRequest }),
        ),
      );
    }
    return [];
  });

/** Every write to the item with `key`, in call order (a retried transaction shows once per attempt). */
export const writesTo = (ddb: DocumentStub, key: Key, table?: string): Write[] =>
  allWrites(ddb, table).filter((w) => sameKey(w.key, key));

/** The one write to the item with `key`; throws when there is none or more than one, naming the items written. */
export const writeTo = (ddb: DocumentStub, key: Key, table?: string): Write => {
  const found = writesTo(ddb, key, table);
  if (found.length !== 1) {
    const written = allWrites(ddb, table).map((w) => JSON.stringify(w.key));
    throw new Error(`${found.length} writes to ${JSON.stringify(key)}; written: ${written.join(', ') || 'nothing'}`);
  }
  return found[0]!;
};
