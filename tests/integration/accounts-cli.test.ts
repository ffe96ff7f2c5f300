import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';
import { api } from '../support/api-client.ts';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..');

async function cli(...args: string[]) {
  const env = inject('localEnv');
  const port = new URL(env.AWS_ENDPOINT_URL_DYNAMODB!).port;
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'scripts/accounts.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, DYNAMODB_LOCAL_PORT: port, NODE_NO_WARNINGS: '1' },
  });
  return JSON.parse(stdout);
}

describe('the operator CLI against the local stack', () => {
  it('creates an account whose key the API accepts, updates it and lists it', async () => {
    const created = await cli(
      'create',
      '--name',
      'CLI account',
      '--features',
      'full_breed_schema,body_condition',
      '--quota',
      '50',
    );
    const token = await api('POST', '/auth/token', { key: created.api_key });
    const updated = await cli('update', created.id, '--status', 'inactive');
    const listed: { id: string }[] = await cli('list');

    expect(created).toMatchObject({
      name: 'CLI account',
      features: ['body_condition', 'full_breed_schema'],
      quota: 50,
      role: 'user',
    });
    expect(token.status).toBe(200);
    expect(updated).toMatchObject({ id: created.id, status: 'inactive' });
    expect(listed.map((a) => a.id)).toContain(created.id);
  });

  it("refuses invalid input with the API's messages and a non-zero exit", async () => {
    await expect(cli('create', '--name', 'X', '--role', 'owner')).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('role must be one of: admin, user'),
    });
  });
});
