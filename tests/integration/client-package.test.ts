// The SDK as an integrator gets it: `npm pack` in clients/ts, installed offline into an empty project, the README's
// quick-start program compiled against the installed package's .d.ts files and run on the local stack.
import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';
import { api, createAccount } from '../support/api-client.ts';
import { aPhoto } from '../support/factories/pets.ts';
import { scratchDirs } from '../support/scratch-dirs.ts';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..');
const PACKAGE = join(ROOT, 'clients', 'ts');
const scratch = scratchDirs('client-package');

/** The README's quick start: the first TypeScript block under its heading. */
function quickStart(): string {
  const readme = readFileSync(join(PACKAGE, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Quick start'));
  return /```ts\n([\s\S]*?)```/.exec(section)![1]!;
}

/**
 * Packs the SDK and its dependencies (from the repository's node_modules, so nothing needs the registry) and installs
 * them into an empty ESM project, with typescript and Node's types linked from the repository.
 */
async function installedProject(): Promise<string> {
  const tarballs = scratch('tarballs');
  const pack = (dir: string) => run('npm', ['pack', '--silent', '--pack-destination', tarballs, dir], { cwd: ROOT });
  await pack(PACKAGE);
  await pack(join(ROOT, 'node_modules', 'openapi-fetch'));
  await pack(join(ROOT, 'node_modules', 'openapi-typescript-helpers'));
  const project = scratch('project');
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'integrator', private: true, type: 'module' }));
  const files = readdirSync(tarballs).map((f) => join(tarballs, f));
  await run(
    'npm',
    ['install', '--offline', '--no-package-lock', '--no-audit', '--no-fund', '--ignore-scripts', ...files],
    {
      cwd: project,
    },
  );
  mkdirSync(join(project, 'node_modules', '@types'));
  symlinkSync(join(ROOT, 'node_modules', 'typescript'), join(project, 'node_modules', 'typescript'));
  symlinkSync(join(ROOT, 'node_modules', '@types', 'node'), join(project, 'node_modules', '@types', 'node'));
  return project;
}

describe('the packed SDK in an empty project', () => {
  it('compiles the README’s program against the installed package and runs it on the local stack', async () => {
    const project = await installedProject();
    const installed = JSON.parse(readFileSync(join(project, 'node_modules/@pet-api/client/package.json'), 'utf8'));
    expect(installed.private).toBeUndefined();
    writeFileSync(join(project, 'quick-start.ts'), quickStart());
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        // A Node project's settings, without the DOM library: the package's types must stand on Node's.
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          strict: true,
          skipLibCheck: true,
          types: ['node'],
          outDir: 'out',
        },
        files: ['quick-start.ts'],
      }),
    );
    await run(process.execPath, [join(project, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', project]);

    const account = await createAccount();
    const photo = join(project, 'biscuit.jpg');
    writeFileSync(photo, await aPhoto(2601));
    const { stdout } = await run(process.execPath, [join(project, 'out', 'quick-start.js')], {
      cwd: project,
      env: { ...process.env, PET_API_URL: inject('baseUrl'), PET_API_KEY: account.api_key, PHOTO: photo },
      timeout: 60_000,
    });

    const [, petId, photoId] = /^pet (\S+) with photo (\S+)$/m.exec(stdout)!;
    const pet = await api('GET', `/pets/${petId}`, { key: account.api_key });
    expect(pet.body).toMatchObject({ name: 'Biscuit', species_id: 'dog', photo_count: 1 });
    const cats = await api('GET', '/breeds?species_id=cat&limit=1', { key: account.api_key });
    const [first] = (await api('GET', '/breeds?species_id=cat&limit=1000', { key: account.api_key })).body;
    expect(stdout).toContain(`cat breeds ${cats.headers.get('pagination-count')}, from ${first.name} to `);
    expect(stdout).toContain(`webhook image.uploaded for ${photoId}`);
    expect(stdout).toMatch(/^error 404 \w+$/m);
    const hooks = await api('GET', '/webhooks', { key: account.api_key });
    expect(hooks.body).toEqual([]);
  }, 180_000);
});
