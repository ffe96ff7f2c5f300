// Operator CLI that copies a table's items through a file (docs/operations.md#restore): `npm run table -- export
// --out items.jsonl` and `npm run table -- import --in items.jsonl --table <new table>`. One item per line in
// DynamoDB JSON (shared/db/item-lines.ts); both read and write a page at a time, so memory stays bounded whatever the
// table's size. Prints a JSON report on stdout, progress on stderr. Exit codes: 0 done, 1 failed, 2 usage error.
// Local stack by default; `--stage staging|production` uses the caller's AWS credentials.
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { Command, InvalidArgumentError, Option } from 'commander';
import { parseStage } from '../infra/stage.ts';
import { batchWriteAll } from '../shared/db/batch.ts';
import { boundedLines, EXACT_NUMBERS, itemLine, parseItemLine } from '../shared/db/item-lines.ts';
import { scanPages } from '../shared/db/scan-pages.ts';
import { runScript } from './media-target.ts';
import { stackOutput } from './stack-outputs.ts';

/** Items per Scan page and per group of batch writes: what the script holds at a time. */
const PAGE_SIZE = 100;
const LOCAL_TABLE = 'pet-api-local';

interface Options {
  stage?: string;
  dynamodbPort: number;
}

const integer = (value: string) => {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('expected a whole number.');
  return Number(value);
};

const program = new Command('npm run table --')
  .description("Copy a table's items through a file: export them, import them into a new table.")
  .addHelpText('after', '\nExit codes: 0 done, 1 failed, 2 usage error.')
  .configureHelp({ showGlobalOptions: true })
  .showHelpAfterError()
  .exitOverride()
  .option('--stage <stage>', 'a deployed stage (staging|production), with your AWS credentials; default: local')
  .addOption(
    new Option('--dynamodb-port <port>', 'DynamoDB Local port of the local stack')
      .env('DYNAMODB_LOCAL_PORT')
      .default(8000)
      .argParser(integer),
  );

/** A document client for the target that reads and writes numbers exactly as stored. */
function documentClient(options: Options): DynamoDBDocumentClient {
  const client = options.stage
    ? new DynamoDBClient({})
    : new DynamoDBClient({
        endpoint: `http://127.0.0.1:${options.dynamodbPort}`,
        region: process.env.AWS_REGION ?? 'us-east-1',
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      });
  return DynamoDBDocumentClient.from(client, EXACT_NUMBERS);
}

program
  .command('export')
  .description(
    "write every item of a table to a new file, one per line (a Scan: not a point in time of a live table's writes)",
  )
  .requiredOption('--out <file>', 'the file to write (must not exist)')
  .option('--table <name>', `the table (default: ${LOCAL_TABLE}, or the stage's stack output TableName)`)
  .action(async (_options: unknown, command: Command) => {
    const options = command.optsWithGlobals<Options & { out: string; table?: string }>();
    const table =
      options.table ?? (options.stage ? await stackOutput(parseStage(options.stage), 'TableName') : LOCAL_TABLE);
    const ddb = documentClient(options);
    const out = createWriteStream(options.out, { flags: 'wx' });
    await once(out, 'open');
    let items = 0;
    for await (const page of scanPages(ddb, { TableName: table, Limit: PAGE_SIZE })) {
      for (const item of page) if (!out.write(`${itemLine(item)}\n`)) await once(out, 'drain');
      items += page.length;
      console.error(`${items} items exported`);
    }
    out.end();
    await once(out, 'finish');
    console.log(JSON.stringify({ table, file: options.out, items }, null, 2));
  });

program
  .command('import')
  .description('write every item of an exported file into a table, checking the whole file before the first write')
  .requiredOption('--in <file>', 'the exported file')
  .requiredOption('--table <name>', 'the table to fill: a new, empty one (restored or created), never the live one')
  .option('--create', "create the table first with the app's keys, index, stream and TTL (local stack only)")
  .option('--resume', 'allow a table that already holds items (finishing an interrupted import of the same file)')
  .action(async (_options: unknown, command: Command) => {
    const options = command.optsWithGlobals<
      Options & { in: string; table: string; create?: boolean; resume?: boolean }
    >();
    if (options.create && options.stage)
      throw new InvalidArgumentError('--create is for the local stack; on a stage the restore creates the table.');
    const ddb = documentClient(options);
    const lines = () => boundedLines(createReadStream(options.in));
    // Every line is checked before anything is written: a bad line leaves the table as it was.
    let checked = 0;
    for await (const { number, text } of lines()) {
      try {
        parseItemLine(text);
      } catch (error) {
        throw new Error(`${options.in} line ${number}: ${(error as Error).message}; nothing imported`);
      }
      checked += 1;
    }
    if (options.create) {
      // The local bootstrap's table (keys, index, stream, TTL as the CDK app declares them), loaded only when asked:
      // that module also starts the emulators.
      const { ensureTable } = await import('./local/stack.ts');
      await ensureTable(ddb, options.table);
    }
    const { Items = [] } = await ddb.send(new ScanCommand({ TableName: options.table, Limit: 1 }));
    if (Items.length > 0 && !options.resume)
      throw new Error(`table ${options.table} already holds items; import into a new table (or --resume)`);
    let items = 0;
    let page: Record<string, unknown>[] = [];
    const flush = async () => {
      await batchWriteAll(
        ddb,
        options.table,
        page.map((Item) => ({ PutRequest: { Item } })),
      );
      items += page.length;
      page = [];
      console.error(`${items} of ${checked} items imported`);
    };
    for await (const { text } of lines()) {
      page.push(parseItemLine(text));
      if (page.length === PAGE_SIZE) await flush();
    }
    if (page.length > 0) await flush();
    console.log(JSON.stringify({ table: options.table, file: options.in, items }, null, 2));
  });

await runScript(program);
