import { afterAll, describe, expect, inject, it } from 'vitest';
import {
  createPet,
  createPetApiClient,
  PetApiError,
  type Schema,
  unwrap,
  uploadLargeMedia,
  verifyWebhook,
} from '../../clients/ts/src/index.ts';
import { createAccount } from '../support/api-client.ts';
import { aPhoto, settled } from '../support/factories/pets.ts';
import { assertMatchesDocument } from '../support/openapi-check.ts';
import { startReceiver } from '../support/receiver.ts';

const receivers: Awaited<ReturnType<typeof startReceiver>>[] = [];
afterAll(() => Promise.all(receivers.map((r) => r.close())));

/** The typed client, with its responses checked against the document like every other response of this layer. */
async function client(apiKey: string) {
  const api = createPetApiClient({ baseUrl: inject('baseUrl'), apiKey });
  api.use({
    async onResponse({ request, response }) {
      const path = new URL(request.url).pathname.slice(new URL(inject('baseUrl')).pathname.length);
      const text = await response.clone().text();
      assertMatchesDocument({ method: request.method, path, status: response.status, headers: response.headers, text });
    },
  });
  return api;
}

describe('the typed client (clients/ts) against the local service', () => {
  it('searches breeds, favourites an image, votes, and verifies the signed webhook with verifyWebhook', async () => {
    const account = await createAccount();
    const api = await client(account.api_key);

    const breeds = await api.GET('/breeds/search', { params: { query: { q: 'beagle', limit: 5 } } });
    expect(breeds.response.status).toBe(200);
    expect(breeds.response.headers.get('pagination-count')).toMatch(/^\d+$/);
    const beagle: Schema<'Breed'> | undefined = breeds.data?.find((b) => b.id === 'beagle');
    expect(beagle?.name).toBe('Beagle');

    const images = await api.GET('/images/search', { params: { query: { breed_id: 'beagle', limit: 1 } } });
    const image = images.data?.[0];
    expect(image?.id).toEqual(expect.any(String));

    const receiver = await startReceiver();
    receivers.push(receiver);
    const webhook = await api.POST('/webhooks', {
      body: { url: receiver.url, description: 'typed client', enabled_events: ['vote.created'] },
    });
    expect(webhook.data?.signing_secret).toMatch(/^whsec_/);

    const favourite = await api.POST('/favourites', { body: { image_id: image!.id, sub_id: 'typed-user' } });
    expect(favourite.data?.image_id).toBe(image!.id);
    const again = await api.GET('/favourites/{id}', { params: { path: { id: favourite.data!.id } } });
    expect(again.data?.sub_id).toBe('typed-user');

    const refused = await api.POST('/favourites', { body: { image_id: image!.id, sub_id: 'typed-user' } });
    expect(refused.response.status).toBe(409);
    expect(refused.error?.code).toBe('favourite_exists');
    const thrown = await unwrap(api.POST('/favourites', { body: { image_id: image!.id, sub_id: 'typed-user' } })).catch(
      (error: unknown) => error,
    );
    expect(thrown).toBeInstanceOf(PetApiError);
    expect(thrown).toMatchObject({
      statusCode: 409,
      code: 'favourite_exists',
      requestId: expect.stringMatching(/^[\w-]{20,}$/),
    });

    const vote = await api.POST('/votes', { body: { image_id: image!.id, value: 1, sub_id: 'typed-user' } });
    expect(vote.data?.value).toBe(1);

    const [delivery] = await receiver.waitFor(1);
    const header = delivery!.headers['x-webhook-signature'];
    expect(await verifyWebhook(delivery!.body, header, webhook.data!.signing_secret)).toEqual({
      ok: true,
      timestamp: expect.any(Number),
    });
    expect((await verifyWebhook(delivery!.body, header, 'whsec_wrong')).ok).toBe(false);
    expect(await verifyWebhook(`${delivery!.body} `, header, webhook.data!.signing_secret)).toEqual({
      ok: false,
      reason: 'signature_mismatch',
    });
    const body = JSON.parse(delivery!.body) as Schema<'VoteCreatedEvent'>;
    expect(body).toMatchObject({ id: vote.data!.id, _metadata: { event_type: 'vote.created' } });
  });
});

describe('the client’s upload helpers against the local service', () => {
  it('creates a pet with a photo (multipart) and adds one through the two-step upload, both processed', async () => {
    const account = await createAccount();
    const api = await client(account.api_key);
    const pet = await createPet(api, { name: 'Twostep', species_id: 'cat' }, [await aPhoto(2611)]);
    expect(pet.images).toHaveLength(1);

    const photo = new Blob([new Uint8Array(await aPhoto(2612))], { type: 'image/jpeg' });
    const added = await uploadLargeMedia(api, pet.id, photo, { kind: 'photo', filename: 'large.jpg' });
    expect(added).toMatchObject({ pet_id: pet.id, kind: 'photo', status: 'pending', bytes: photo.size });
    expect((await settled(account.api_key, pet.id, added.id)).body.status).toBe('ready');

    const again = await uploadLargeMedia(api, pet.id, photo, { kind: 'photo' });
    expect(again).toMatchObject({ id: added.id, duplicate: true });
  });
});
