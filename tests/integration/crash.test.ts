// The crash test: the local service (gateway, handlers, consumers, fauxqs) is killed with SIGKILL in the middle of a
// burst of writes, then started again on its persisted data. Every write that was acknowledged must exist, each
// account counter must equal the records it counts (they are written in one transaction, so a crash cannot split
// them), and every acknowledged vote must reach the subscribed receiver at least once (its event is read from the
// table stream after the stream runner's checkpoint). Runs its own service on free ports and a data directory of its
// own, next to the shared integration stack.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { queues, visibilityTimeoutSeconds } from '../../events/consumers.ts';
import { freePort } from '../../scripts/local/ports.ts';
import { startReceiver } from '../support/receiver.ts';

const ROOT = join(import.meta.dirname, '..', '..');
// The first start seeds the persisted table on disk: minutes on a loaded 2-core machine (a restart takes seconds).
const START_TIMEOUT_MS = 600_000;
const WRITERS = 12;
/** The burst: this many votes, and as many favourites between them. */
const VOTES = 200;
/** Kill once this many votes were acknowledged (with more writes in flight). */
const VOTES_BEFORE_KILL = 100;
/**
 * A message a consumer had received when the service was killed comes back after its visibility timeout, as on SQS
 * when a function dies: deliveries may wait that long after the restart.
 */
const DELIVERY_WAIT_MS =
  Math.max(...(Object.keys(queues) as (keyof typeof queues)[]).map(visibilityTimeoutSeconds)) * 1000 + 60_000;

const dataDir = mkdtempSync(join(tmpdir(), 'pet-api-crash-'));
const adminKey = `live_${randomBytes(24).toString('base64url')}`;
let service: ChildProcess | undefined;
const receiver = await startReceiver();

afterAll(async () => {
  if (service) await stop(service, 'SIGTERM');
  await receiver.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function start(ports: { port: number; dynamoDbPort: number; awsPort: number }): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    ['--disable-warning=ExperimentalWarning', '--import', 'tsx', 'scripts/local/start.ts'],
    {
      cwd: ROOT,
      // Its own process group, so one signal reaches the service and its DynamoDB Local child alike.
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        PORT: String(ports.port),
        DYNAMODB_LOCAL_PORT: String(ports.dynamoDbPort),
        AWS_LOCAL_PORT: String(ports.awsPort),
        MEDIA_LOCAL_PORT: '0',
        ADMIN_API_KEY: adminKey,
        LOCAL_PERSIST: '1',
        LOCAL_DATA_DIR: dataDir,
        OWNER_MAIL_OUTBOX_DIR: join(dataDir, 'outbox'),
      },
    },
  );
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the service exited early:\n${output}`);
    const healthy = await fetch(`http://127.0.0.1:${ports.port}/v1/health`).then(
      (res) => res.ok,
      () => false,
    );
    if (healthy) return child;
    await new Promise((r) => setTimeout(r, 200));
  }
  await stop(child, 'SIGKILL');
  throw new Error(`the service was not healthy within ${START_TIMEOUT_MS / 1000} s:\n${output}`);
}

async function stop(child: ChildProcess, signal: 'SIGKILL' | 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(-child.pid!, signal);
  await exited;
  // The group's other members (the JVM) go with the signal; give the OS a moment to free their ports.
  await new Promise((r) => setTimeout(r, 500));
}

/**
 * The service process dies at once (SIGKILL: no shutdown code runs, requests in flight are cut off, fauxqs with it).
 * Its DynamoDB Local child then exits normally (it stops when its parent's pipe closes; the SIGTERM covers a JVM that
 * has not noticed yet): it stands for DynamoDB, which does not crash with the service.
 */
async function crash(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(child.pid!, 'SIGKILL');
  await exited;
  try {
    process.kill(-child.pid!, 'SIGTERM');
  } catch {
    return; // the group is gone already
  }
  for (;;) {
    try {
      process.kill(-child.pid!, 0);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('killing the service in the middle of a burst of writes', () => {
  it('keeps every acknowledged write, counters equal records and every acknowledged vote is delivered after a restart on the persisted data', async ({
    annotate,
  }) => {
    const ports = { port: await freePort(), dynamoDbPort: await freePort(), awsPort: await freePort() };
    service = await start(ports);
    const base = `http://127.0.0.1:${ports.port}/v1`;
    /** With an API key, or with a bearer token for a credential starting `eyJ`. */
    const call = async (method: string, path: string, credential: string, body?: unknown) => {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: {
          ...(credential.startsWith('eyJ') ? { authorization: `Bearer ${credential}` } : { 'x-api-key': credential }),
          ...(body !== undefined && { 'content-type': 'application/json' }),
        },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
      return { status: res.status, body: (await res.json().catch(() => undefined)) as any };
    };
    const account = (await call('POST', '/accounts', adminKey, { name: 'crash test' })).body;
    const images: string[] = (await call('GET', '/images/search?order=ASC&limit=25', account.api_key)).body.map(
      (i: { id: string }) => i.id,
    );
    const hook = await call('POST', '/webhooks', account.api_key, {
      url: receiver.url,
      description: 'crash test',
      enabled_events: ['vote.created'],
    });
    expect(hook.status, JSON.stringify(hook.body)).toBe(200);

    // The burst: votes and favourites (a new sub_id each, so none is a duplicate), until the kill.
    const acknowledged = { votes: [] as string[], favourites: [] as string[] };
    let killed = false;
    let sent = 0;
    const writer = async () => {
      while (!killed && sent < 2 * VOTES) {
        const n = sent++;
        const image_id = images[n % images.length];
        const kind = n % 2 === 0 ? 'votes' : 'favourites';
        const body =
          kind === 'votes' ? { image_id, value: 1, sub_id: `crash-${n}` } : { image_id, sub_id: `crash-${n}` };
        const res = await call('POST', `/${kind}`, account.api_key, body).catch(() => undefined);
        if (res && (res.status === 200 || res.status === 201)) acknowledged[kind].push(String(res.body.id));
      }
    };
    const writers = Array.from({ length: WRITERS }, writer);
    // (Should fewer votes be acknowledged, the kill comes as the last writes are sent.)
    while (acknowledged.votes.length < VOTES_BEFORE_KILL && sent < 2 * VOTES)
      await new Promise((r) => setTimeout(r, 5));
    await crash(service);
    killed = true;
    await Promise.all(writers);
    const acknowledgedCount = acknowledged.votes.length + acknowledged.favourites.length;

    service = await start(ports);
    // Reads of votes take a bearer token; the token key is per run, so this one comes from the restarted service.
    const token: string = (await call('POST', '/auth/token', account.api_key)).body.access_token;

    for (const kind of ['votes', 'favourites'] as const) {
      for (const id of acknowledged[kind]) {
        const res = await call('GET', `/${kind}/${id}`, token);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
      }
    }
    const stored = async (kind: 'votes' | 'favourites') => {
      const ids: string[] = [];
      for (let page = 0; ; page++) {
        const { body } = await call('GET', `/${kind}?limit=100&page=${page}`, token);
        ids.push(...body.map((item: { id: unknown }) => String(item.id)));
        if (body.length < 100) return ids;
      }
    };
    const [votes, favourites] = [await stored('votes'), await stored('favourites')];
    const { counts } = (await call('GET', `/accounts/${account.id}/overview`, adminKey)).body;
    expect(counts).toMatchObject({ votes: votes.length, favourites: favourites.length });
    // Writes cut off by the kill may have committed or not, but nothing beyond what was sent.
    expect(votes.length + favourites.length).toBeGreaterThanOrEqual(acknowledgedCount);
    expect(votes.length + favourites.length).toBeLessThanOrEqual(sent);

    // Deliveries per acknowledged vote: none may be missing; more than one (a replay after the crash) is allowed.
    const deliveries = () => {
      const counts = new Map(acknowledged.votes.map((id) => [id, 0]));
      for (const { body } of receiver.received) {
        const id = String((JSON.parse(body) as { id: unknown }).id);
        if (counts.has(id)) counts.set(id, counts.get(id)! + 1);
      }
      return counts;
    };
    const waitStarted = Date.now();
    const deadline = waitStarted + DELIVERY_WAIT_MS;
    while ([...deliveries().values()].includes(0) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 500));
    await new Promise((r) => setTimeout(r, 2000)); // a replay still on its way shows by now
    const perVote = [...deliveries().values()];
    const histogram = Object.fromEntries(
      [...new Set(perVote)].sort((a, b) => a - b).map((n) => [n, perVote.filter((c) => c === n).length]),
    );
    const report = `${acknowledged.votes.length} acknowledged votes, deliveries per vote ${JSON.stringify(histogram)} (deliveries: votes), the last after ${((Date.now() - waitStarted) / 1000).toFixed(0)} s of waiting`;
    console.info(report);
    await annotate(report);
    expect(acknowledged.votes.filter((id) => deliveries().get(id) === 0)).toEqual([]);
  }, 1_500_000);
});
