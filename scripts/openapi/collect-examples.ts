// `npm run openapi:examples`: turns the responses an integration run recorded (RECORD_OPENAPI_EXAMPLES, see
// tests/support/openapi-check.ts) into docs/openapi-examples.json, then regenerates the document. Recorded, not
// invented: every example is a real response of the local stack, with local ports replaced and long lists cut.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXAMPLES_PATH, ROOT } from './document.ts';

const RECORDED = join(ROOT, '.local', 'openapi-examples');
/** Lists keep their first items only: an example shows the shape, not the catalogue. */
const MAX_LIST_ITEMS = 2;

rmSync(RECORDED, { recursive: true, force: true });
execFileSync('npx', ['vitest', 'run', '--project', 'integration'], {
  cwd: ROOT,
  stdio: 'inherit',
  env: { ...process.env, RECORD_OPENAPI_EXAMPLES: RECORDED },
});

const examples: Record<string, unknown> = {};
for (const file of readdirSync(RECORDED).sort()) {
  const key = file.replace(/\.json$/, '');
  // The reference routes answer the document and the page: no example of themselves.
  if (key.startsWith('docs.')) continue;
  const example = JSON.parse(readFileSync(join(RECORDED, file), 'utf8'));
  if (isHostileEcho(key, example)) continue;
  examples[key] = tidy(example);
}
writeFileSync(EXAMPLES_PATH, `${JSON.stringify(examples, null, 2)}\n`);
console.log(`${Object.keys(examples).length} examples in docs/openapi-examples.json`);
execFileSync('npm', ['run', 'openapi'], { cwd: ROOT, stdio: 'inherit' });

/** Errors of the tests that send hostile input quote it back; such an answer is a poor example of the error. */
function isHostileEcho(key: string, example: unknown): boolean {
  return Number(key.split(' ')[1]) >= 400 && /[^\x20-\x7e\u00a0-\u024f\u2010-\u2027]/u.test(JSON.stringify(example));
}

function tidy(value: unknown): unknown {
  if (Array.isArray(value)) return value.slice(0, MAX_LIST_ITEMS).map(tidy);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, tidy(v)]));
  }
  // Each run picks free ports; examples name the defaults of `npm start`: the API on 3000, the media front (what the
  // CDN serves) on 4567, fauxqs (S3: presigned URLs) on 4566.
  if (typeof value !== 'string') return value;
  return value
    .replace(/http:\/\/127\.0\.0\.1:\d+\/v1\//g, 'http://127.0.0.1:3000/v1/')
    .replace(/http:\/\/127\.0\.0\.1:\d+\/(catalogue|images|public)\//g, 'http://127.0.0.1:4567/$1/')
    .replace(/http:\/\/127\.0\.0\.1:\d+/g, 'http://127.0.0.1:4566');
}
