// The operator's import of an attributed photo set, end to end on the local stack: the script (as `npm run
// images:import` runs it) reads a CSV manifest with a local file and a URL, stores the photos in the bucket and
// publishes them; they are found by their tags with their credit, a second run publishes nothing twice, and a
// manifest with an unlicensed row imports nothing.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../../scripts/local/ports.ts';
import { api, createAccount } from '../support/api-client.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'images-import-'));
let server: Server;
let photoUrl: string;
let key: string;

const jpeg = (background: string) =>
  sharp({ create: { width: 90, height: 70, channels: 3, background } })
    .jpeg()
    .toBuffer();

/** Runs the import script against the local stack's DynamoDB Local and bucket; answers exit code and report. */
async function importManifest(file: string | ['--remove', string]) {
  const env = inject('localEnv');
  const port = (url: string) => new URL(url).port;
  const args = [
    '--disable-warning=ExperimentalWarning',
    '--import',
    'tsx',
    'scripts/images-import.ts',
    ...(typeof file === 'string' ? [join(dir, file)] : file),
    '--dynamodb-port',
    port(env.AWS_ENDPOINT_URL_DYNAMODB!),
    '--aws-port',
    port(env.AWS_ENDPOINT_URL_S3!),
  ];
  try {
    const { stdout } = await run(process.execPath, args, { cwd: ROOT });
    return { code: 0, report: JSON.parse(stdout) };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    if (!failed.stdout) throw new Error(failed.stderr);
    return { code: failed.code, report: JSON.parse(failed.stdout) };
  }
}

beforeAll(async () => {
  key = (await createAccount()).api_key;
  writeFileSync(join(dir, 'mia.jpg'), await jpeg('#303030'));
  const downloaded = await jpeg('#c0a080');
  server = createServer((_, res) => res.writeHead(200, { 'content-type': 'image/jpeg' }).end(downloaded));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  photoUrl = `http://127.0.0.1:${address.port}/leo.jpg`;
  const header = 'file,url,author,licence,source_url,species_id,breed_ids,colour_ids,category_ids';
  writeFileSync(
    join(dir, 'set.csv'),
    [
      header,
      'mia.jpg,,Jo Park,CC-BY-SA-4.0,https://commons.example.org/wiki/File:Mia.jpg,cat,abyssinian,cat-n,',
      `,${photoUrl},"Lee, Sam",CC0-1.0,https://photos.example.org/leo,cat,abyssinian,,`,
    ].join('\n'),
  );
  writeFileSync(
    join(dir, 'unlicensed.csv'),
    [header, 'mia.jpg,,Jo Park,All rights reserved,https://example.org/mia,cat,abyssinian,,'].join('\n'),
  );
});
afterAll(() => {
  server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('npm run images:import', () => {
  it('publishes a licensed set: searchable by its tags, credited, served from the bucket, never twice', async () => {
    const before = await api('GET', '/images/search?breed_id=abyssinian&order=DESC&limit=2', { key });

    const { code, report } = await importManifest('set.csv');

    expect(code).toBe(0);
    expect(report.failed).toEqual([]);
    expect(report.published.map((p: { line: number }) => p.line)).toEqual([2, 3]);
    const after = await api('GET', '/images/search?breed_id=abyssinian&order=DESC&limit=2&include_colours=true', {
      key,
    });
    expect(Number(after.headers.get('pagination-count'))).toBe(Number(before.headers.get('pagination-count')) + 2);
    const [leo, mia] = after.body;
    expect(mia).toMatchObject({
      id: report.published[0].id,
      kind: 'photo',
      species_id: 'cat',
      width: 90,
      height: 70,
      attribution: {
        author: 'Jo Park',
        licence: 'CC-BY-SA-4.0',
        source_url: 'https://commons.example.org/wiki/File:Mia.jpg',
      },
      colours: [expect.objectContaining({ id: 'cat-n' })],
    });
    expect(leo.attribution).toEqual({
      author: 'Lee, Sam',
      licence: 'CC0-1.0',
      licence_url: 'https://creativecommons.org/publicdomain/zero/1.0/',
      source_url: 'https://photos.example.org/leo',
    });
    const served = await fetch(mia.url);
    expect([served.status, served.headers.get('content-type')]).toEqual([200, 'image/jpeg']);
    expect(served.headers.get('content-disposition')).toBe(`inline; filename="${mia.id}.jpg"`);
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await api('GET', `/images/${mia.id}`, { key })).body).toMatchObject({ kind: 'photo', status: 'approved' });

    const again = await importManifest('set.csv');
    expect(again.code).toBe(0);
    expect(again.report.published).toEqual([]);
    expect(again.report.existing.map((e: { id: string }) => e.id)).toEqual(
      report.published.map((p: { id: string }) => p.id),
    );
    const total = await api('GET', '/images/search?breed_id=abyssinian&limit=1', { key });
    expect(total.headers.get('pagination-count')).toBe(after.headers.get('pagination-count'));

    // A takedown: the photo leaves search, the table and the bucket.
    const removed = await importManifest(['--remove', mia.id]);
    expect([removed.code, removed.report]).toEqual([0, { id: mia.id, outcome: 'removed' }]);
    const left = await api('GET', '/images/search?breed_id=abyssinian&order=DESC&limit=2', { key });
    expect(Number(left.headers.get('pagination-count'))).toBe(Number(before.headers.get('pagination-count')) + 1);
    expect(left.body.map((i: { id: string }) => i.id)).not.toContain(mia.id);
    expect((await api('GET', `/images/${mia.id}`, { key })).status).toBe(404);
    expect((await fetch(mia.url)).status).toBe(404);
    expect((await importManifest(['--remove', mia.id])).code).toBe(1);
  }, 120_000); // five runs of the script, each a fresh Node process

  it('refuses an unlicensed row and imports nothing, exit code 1', async () => {
    const { code, report } = await importManifest('unlicensed.csv');

    expect(code).toBe(1);
    expect(report).toMatchObject({ valid: 0, imported: false, refused: [{ line: 2 }] });
    expect(report.refused[0].problems.join(' ')).toContain('licence must be');
  });

  it('without a reachable local stack, says so once with the ports to set, exit code 1', async () => {
    const [dynamoDbPort, awsPort] = [await freePort(), await freePort()];
    const args = ['--import', 'tsx', 'scripts/images-import.ts', join(dir, 'set.csv')];
    const ports = ['--dynamodb-port', String(dynamoDbPort), '--aws-port', String(awsPort)];

    const failed = await run(process.execPath, [...args, ...ports], { cwd: ROOT }).catch((error) => error);

    expect(failed.code).toBe(1);
    expect(failed.stdout).toBe('');
    expect(failed.stderr.trim().split('\n')).toEqual([
      `cannot reach the local stack (DynamoDB Local at http://127.0.0.1:${dynamoDbPort}, S3 at http://127.0.0.1:${awsPort}).`,
      'Start it with `npm start`, or set DYNAMODB_LOCAL_PORT and AWS_LOCAL_PORT (or --dynamodb-port, --aws-port) to its ports.',
    ]);
  });
});
