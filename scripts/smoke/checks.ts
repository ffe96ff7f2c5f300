// The smoke suite: black-box checks over HTTP against one stage, on data it creates itself (an account, a webhook, a
// vote, a pet) and removes again in `finally`, also after a failed check. It never reads or changes anything else.
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as z from 'zod/mini';
import { errorBody } from '../../shared/http/error-body.ts';
import { until } from '../polling.ts';
import { type Answer, type Api, brief, expectStatus } from './http.ts';
import { readEveryRoute } from './reads.ts';
import { type Receiver, startReceiver } from './receiver.ts';
import { needs, type Suite } from './suite.ts';

/** How long the asynchronous side may take: a webhook delivery, a photo's processing (cold starts included). */
export const WEBHOOK_WAIT_MS = 60_000;
export const PHOTO_WAIT_MS = 90_000;
/** A deployed stage is read at most twice a second while waiting. */
const POLL_MS = 500;

export interface SmokeOptions {
  adminKey: string;
  /** Run a receiver on a loopback port; otherwise look for the delivery in the delivery log. */
  receiver: boolean;
  /** Where deliveries go without a receiver (an attempt is logged whatever it answers). */
  webhookUrl: string;
}

interface Made {
  account?: { id: string; key: string };
  webhookId?: string;
  voteId?: string;
  petId?: string;
}

const ROOT = join(import.meta.dirname, '..', '..');

export async function runSmoke(suite: Suite, api: Api, options: SmokeOptions): Promise<void> {
  const made: Made = {};
  const receiver = options.receiver ? await startReceiver() : undefined;
  try {
    await checkHealth(suite, api);
    await checkRefusals(suite, api);
    await suite.check('create an account (admin key)', async () => {
      const created = expectStatus(
        await api('POST', '/accounts', { key: options.adminKey, body: { name: `smoke ${new Date().toISOString()}` } }),
        201,
        'POST /accounts',
      );
      made.account = { id: String(created.id), key: String(created.api_key) };
      return `account ${made.account.id}`;
    });
    if (made.account) await readEveryRoute(suite, api, made.account.key);
    await checkErrorShape(suite, api, made);
    await checkVoteWebhook(suite, api, made, receiver, options);
    await checkPetPhoto(suite, api, made);
  } finally {
    await cleanUp(suite, api, made, options.adminKey);
    await receiver?.close();
  }
}

async function checkHealth(suite: Suite, api: Api) {
  await suite.check(
    'health',
    async () => `200 ${brief(expectStatus(await api('GET', '/health'), 200, 'GET /health'))}`,
  );
}

/** No key and a wrong key are refused alike (403, the spec's error JSON). */
async function checkRefusals(suite: Suite, api: Api) {
  await suite.check('auth: no key is 403', async () => refused(await api('GET', '/breeds'), 403));
  await suite.check('auth: a wrong key is 403', async () =>
    refused(await api('GET', '/breeds', { key: `live_${randomUUID()}` }), 403),
  );
}

function refused(answer: Answer, status: number): string {
  const body = errorShaped(answer, status);
  return `${status} ${body.code ?? body.error}`;
}

/** The answer has `status` and the spec's error JSON. */
function errorShaped(answer: Answer, status: number) {
  if (answer.status !== status) throw new Error(`expected ${status}, got ${answer.status} ${brief(answer.body)}`);
  const parsed = z.safeParse(errorBody, answer.body);
  if (!parsed.success) throw new Error(`not the spec's error JSON: ${brief(answer.body)}`);
  if (parsed.data.statusCode !== status) throw new Error(`statusCode ${parsed.data.statusCode} in a ${status}`);
  return parsed.data;
}

async function checkErrorShape(suite: Suite, api: Api, made: Made) {
  await suite.check('error shape: an unknown pet is 404', async () => {
    const { key } = needs(made.account, 'account');
    return refused(await api('GET', `/pets/${randomUUID()}`, { key }), 404);
  });
  await suite.check('error shape: an unknown query parameter is 400, named', async () => {
    const { key } = needs(made.account, 'account');
    const body = errorShaped(await api('GET', '/breeds?smoke_unknown=1', { key }), 400);
    if (!JSON.stringify(body.message).includes('smoke_unknown')) throw new Error(`message ${brief(body.message)}`);
    return `400 ${brief(body.message)}`;
  });
  await suite.check('auth: an admin route with a user key is 403', async () => {
    const { key } = needs(made.account, 'account');
    return refused(await api('POST', '/accounts', { key, body: { name: 'smoke refused' } }), 403);
  });
}

async function checkVoteWebhook(
  suite: Suite,
  api: Api,
  made: Made,
  receiver: Receiver | undefined,
  options: SmokeOptions,
) {
  await suite.check('register a webhook for vote.created', async () => {
    const { key } = needs(made.account, 'account');
    const url = receiver?.url ?? options.webhookUrl;
    const webhook = expectStatus(
      await api('POST', '/webhooks', {
        key,
        body: { url, description: 'smoke test', enabled_events: ['vote.created'] },
      }),
      200,
      'POST /webhooks',
    );
    made.webhookId = String(webhook.id);
    receiver?.useSecret(String(webhook.signing_secret));
    return `${made.webhookId} → ${url}`;
  });
  await suite.check('vote on a catalogue image', async () => {
    const { key } = needs(made.account, 'account');
    const [image] = expectStatus<{ id: string }[]>(await api('GET', '/images/search?limit=1', { key }), 200, 'search');
    const vote = expectStatus(
      await api('POST', '/votes', {
        key,
        body: { image_id: needs(image, 'catalogue image').id, value: 1, sub_id: 'smoke' },
      }),
      200,
      'POST /votes',
    );
    made.voteId = String(vote.id);
    return `vote ${made.voteId} on ${image!.id}`;
  });
  await suite.check('auth: reading a vote takes the bearer token', async () => {
    const { key } = needs(made.account, 'account');
    const voteId = needs(made.voteId, 'vote');
    const { access_token: token } = expectStatus(await api('POST', '/auth/token', { key }), 200, 'POST /auth/token');
    expectStatus(await api('GET', `/votes/${voteId}`, { token: String(token) }), 200, 'GET /votes/{id} with the token');
    return `bearer 200, API key ${refused(await api('GET', `/votes/${voteId}`, { key }), 403)}`;
  });
  if (receiver) await checkDeliveryReceived(suite, made, receiver);
  else await checkDeliveryLogged(suite, api, made);
}

async function checkDeliveryReceived(suite: Suite, made: Made, receiver: Receiver) {
  await suite.check(`webhook vote.created received and verified (≤ ${WEBHOOK_WAIT_MS / 1000} s)`, async () => {
    const voteId = needs(made.voteId, 'vote');
    const ours = () => receiver.deliveries.find((d) => d.event === 'vote.created' && String(d.body.id) === voteId);
    await until(async () => ours(), Boolean, WEBHOOK_WAIT_MS, POLL_MS);
    const delivery = ours();
    if (!delivery) throw new Error(`no delivery of vote ${voteId} (${receiver.deliveries.length} others)`);
    if (!delivery.verification.ok) throw new Error(`signature refused: ${delivery.verification.reason}`);
    return 'signature verified with the SDK';
  });
}

async function checkDeliveryLogged(suite: Suite, api: Api, made: Made) {
  await suite.check(`webhook vote.created in the delivery log (≤ ${WEBHOOK_WAIT_MS / 1000} s)`, async () => {
    const { key } = needs(made.account, 'account');
    const webhookId = needs(made.webhookId, 'webhook');
    needs(made.voteId, 'vote');
    type Attempt = { event_type: string; attempt: number; status_code: number | null; succeeded: boolean };
    const read = async () =>
      expectStatus<Attempt[]>(await api('GET', `/webhooks/${webhookId}/deliveries`, { key }), 200, 'log');
    const attempts = await until(
      read,
      (log) => log.some((a) => a.event_type === 'vote.created'),
      WEBHOOK_WAIT_MS,
      POLL_MS,
    );
    const attempt = attempts.find((a) => a.event_type === 'vote.created');
    if (!attempt) throw new Error('no attempt logged');
    return `attempt ${attempt.attempt}: receiver answered ${attempt.status_code ?? 'nothing'}`;
  });
}

async function checkPetPhoto(suite: Suite, api: Api, made: Made) {
  let imageId: string | undefined;
  await suite.check('create a pet with a real photo', async () => {
    const { key } = needs(made.account, 'account');
    const photo = await smallestRealPhoto(api, key);
    const form = new FormData();
    form.append('name', 'Smoke');
    form.append('species_id', 'dog');
    form.append('images', new Blob([photo.bytes], { type: 'image/jpeg' }), `${photo.id}.jpg`);
    const pet = expectStatus(await api('POST', '/pets', { key, body: form }), 201, 'POST /pets');
    made.petId = String(pet.id);
    imageId = needs((pet.images as { id: string }[])[0], 'photo in the answer').id;
    return `pet ${made.petId}, photo ${imageId} (catalogue photo ${photo.id}, ${photo.bytes.byteLength} bytes)`;
  });
  await suite.check(`the photo is processed to ready (≤ ${PHOTO_WAIT_MS / 1000} s)`, async () => {
    const { key } = needs(made.account, 'account');
    const path = `/pets/${needs(made.petId, 'pet')}/images/${needs(imageId, 'photo')}`;
    const read = async () => expectStatus(await api('GET', path, { key }), 200, `GET ${path}`);
    const media = await until(read, (m) => m.status !== 'pending', PHOTO_WAIT_MS, POLL_MS);
    if (media.status !== 'ready') throw new Error(`status ${String(media.status)}: ${brief(media)}`);
    return `ready, ${media.width}×${media.height}`;
  });
  await suite.check('Pagination-Count of the pets list', async () => {
    const { key } = needs(made.account, 'account');
    needs(made.petId, 'pet');
    const answer = await api('GET', '/pets', { key });
    const pets = expectStatus<unknown[]>(answer, 200, 'GET /pets');
    const count = answer.headers.get('pagination-count');
    if (count !== '1' || pets.length !== 1) throw new Error(`Pagination-Count ${count}, ${pets.length} pets listed`);
    return 'Pagination-Count: 1, one pet listed';
  });
  await suite.check('delete the pet', async () => {
    const { key } = needs(made.account, 'account');
    const petId = needs(made.petId, 'pet');
    expectStatus(await api('DELETE', `/pets/${petId}`, { key }), 200, 'DELETE /pets/{id}');
    made.petId = undefined;
    errorShaped(await api('GET', `/pets/${petId}`, { key }), 404);
    return 'gone: GET answers 404';
  });
}

/** The smallest of the repository's real photos (data/photos.json), as the stage's media front serves it. */
async function smallestRealPhoto(api: Api, key: string) {
  const photos: { id: string; width: number; height: number }[] = JSON.parse(
    await readFile(join(ROOT, 'data', 'photos.json'), 'utf8'),
  );
  const [smallest] = photos.toSorted((a, b) => a.width * a.height - b.width * b.height);
  const { id } = needs(smallest, 'real photo in data/photos.json');
  const image = expectStatus(await api('GET', `/images/${id}`, { key }), 200, `GET /images/${id}`);
  const response = await fetch(String(image.url), { signal: AbortSignal.timeout(15_000) });
  if (!response.ok) throw new Error(`GET ${String(image.url)}: ${response.status}`);
  return { id, bytes: new Uint8Array(await response.arrayBuffer()) };
}

/** Removes what the run made, in an order that leaves nothing behind, each step a check of its own. */
async function cleanUp(suite: Suite, api: Api, made: Made, adminKey: string) {
  const { account } = made;
  if (!account) return;
  const { key } = account;
  if (made.petId) {
    const petId = made.petId;
    await suite.check('clean up: delete the pet', async () => {
      expectStatus(await api('DELETE', `/pets/${petId}`, { key }), 200, 'DELETE /pets/{id}');
      return petId;
    });
  }
  if (made.webhookId) {
    const webhookId = made.webhookId;
    await suite.check('clean up: delete the webhook', async () => {
      expectStatus(await api('DELETE', `/webhooks/${webhookId}`, { key }), 200, 'DELETE /webhooks/{id}');
      return webhookId;
    });
  }
  if (made.voteId) {
    const voteId = made.voteId;
    await suite.check('clean up: delete the vote', async () => {
      expectStatus(await api('DELETE', `/votes/${voteId}`, { key }), 200, 'DELETE /votes/{id}');
      return voteId;
    });
  }
  await suite.check('deactivate the account (admin key)', async () => {
    const body = { status: 'inactive' };
    expectStatus(await api('PATCH', `/accounts/${account.id}`, { key: adminKey, body }), 200, 'PATCH /accounts/{id}');
    return account.id;
  });
  await suite.check("auth: a deactivated account's key is 401", async () =>
    refused(await api('GET', '/breeds', { key }), 401),
  );
}
