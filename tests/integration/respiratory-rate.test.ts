import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifySignature } from '../../shared/webhooks/signature.ts';
import { api, createAccount } from '../support/api-client.ts';
import { aPet, readyBreathingVideos } from '../support/factories/pets.ts';
import { startReceiver } from '../support/receiver.ts';

// The accuracy table of the issue, end to end: videos rendered at known rates → upload → video processing →
// POST respiratory-rate → table stream → measuring consumer (ffmpeg + spectrum) → signed webhook.
const RATES = [12, 20, 30, 45];
/** Lighting that flickers at 20 per minute, over a still patch and over a patch breathing at 30 per minute. */
const FLICKER = { bpm: 0, flickerBpm: 20 } as const;
const BREATHING_UNDER_FLICKER = { bpm: 30, flickerBpm: 20 } as const;
const EVENT = 'pet.respiratory_rate.completed';

describe('respiratory rate from a pet video, against the local stack with real ffmpeg', () => {
  let owner: { id: string; api_key: string };
  let petId: string;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let secret: string;
  const videoIds = new Map<number | null | object, string>();
  const dir = mkdtempSync(join(tmpdir(), 'breathing-'));

  beforeAll(async () => {
    owner = await createAccount({ quota: 100, features: ['respiratory_rate'] });
    petId = (await aPet(owner.api_key, { name: 'Breather', breed_ids: 'beagle' })).body.id;
    receiver = await startReceiver();
    const hook = await api('POST', '/webhooks', {
      key: owner.api_key,
      body: { url: receiver.url, description: 'respiratory rate', enabled_events: [EVENT] },
    });
    secret = hook.body.signing_secret;
    // The noise video last: the default (newest ready) video below.
    const scenes = [...RATES, FLICKER, BREATHING_UNDER_FLICKER, null];
    const ids = await readyBreathingVideos(
      owner.api_key,
      petId,
      dir,
      scenes.map((scene) => ({
        ...(typeof scene === 'object' && scene !== null ? scene : { bpm: scene }),
        seconds: 20,
      })),
    );
    for (const [i, scene] of scenes.entries()) videoIds.set(scene, ids[i]!);
  }, 120_000);
  afterAll(async () => {
    await receiver?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists the event among the webhook topics', async () => {
    const topics = await api('GET', '/webhooks/topics', { key: owner.api_key });
    expect(topics.body.map((t: { name: string }) => t.name)).toContain(EVENT);
  });

  it('measures each rate within ±1.5 breaths per minute, delivered signed by webhook and readable by id', async () => {
    const requested = new Map<string, number>();
    for (const bpm of RATES) {
      const res = await api('POST', `/pets/${petId}/respiratory-rate`, {
        key: owner.api_key,
        body: { video_id: videoIds.get(bpm) },
      });
      expect(res.status).toBe(202);
      expect(res.body).toMatchObject({ status: 'processing', video_id: videoIds.get(bpm) });
      requested.set(res.body.id, bpm);
    }

    const deliveries = await receiver.waitFor(RATES.length, 60_000);
    const bodies = deliveries.map((d) => {
      const check = verifySignature({
        header: String(d.headers['x-webhook-signature']),
        rawBody: d.body,
        secret,
        nowSeconds: Math.floor(Date.now() / 1000),
      });
      expect(check.ok).toBe(true);
      expect(d.headers['x-webhook-event']).toBe(EVENT);
      return JSON.parse(d.body);
    });
    const measured = bodies.filter((b) => requested.has(b.id));
    expect(measured).toHaveLength(RATES.length);
    for (const body of measured) {
      const bpm = requested.get(body.id)!;
      expect(body).toMatchObject({
        status: 'completed',
        pet_id: petId,
        video_id: videoIds.get(bpm),
        breed_baseline: { low: 10, high: 30 },
        within_baseline: bpm >= 10 && bpm <= 30,
        _metadata: { event_type: EVENT },
      });
      expect(
        Math.abs(body.breaths_per_minute - bpm),
        `${bpm} bpm measured as ${body.breaths_per_minute}`,
      ).toBeLessThanOrEqual(1.5);
      const stored = await api('GET', `/pets/${petId}/respiratory-rate/${body.id}`, { key: owner.api_key });
      expect(stored.body).toMatchObject({ status: 'completed', breaths_per_minute: body.breaths_per_minute });
    }
  }, 90_000);

  /** Measures one video and answers the delivered event's body. */
  async function measured(videoId: string) {
    const before = receiver.received.length;
    const res = await api('POST', `/pets/${petId}/respiratory-rate`, {
      key: owner.api_key,
      body: { video_id: videoId },
    });
    const [delivery] = (await receiver.waitFor(before + 1, 30_000)).slice(before);
    const body = JSON.parse(delivery!.body);
    expect(body.id).toBe(res.body.id);
    return body;
  }

  it('ends failed (no periodic motion) on a video of pure noise, and delivers that too', async () => {
    const body = await measured(videoIds.get(null)!);
    expect(body).toMatchObject({ status: 'failed', reason: 'no_periodic_motion' });
    const stored = await api('GET', `/pets/${petId}/respiratory-rate/${body.id}`, { key: owner.api_key });
    expect(stored.body).toMatchObject({ status: 'failed', reason: 'no_periodic_motion' });
    expect(stored.body).not.toHaveProperty('breaths_per_minute');
  }, 60_000);

  it('takes a flickering light for lighting, not breathing, and measures a breathing patch under it', async () => {
    expect(await measured(videoIds.get(FLICKER)!)).toMatchObject({ status: 'failed', reason: 'no_periodic_motion' });
    const underFlicker = await measured(videoIds.get(BREATHING_UNDER_FLICKER)!);
    expect(underFlicker).toMatchObject({ status: 'completed' });
    expect(Math.abs(underFlicker.breaths_per_minute - 30)).toBeLessThanOrEqual(1.5);
  }, 60_000);

  it('measures the newest ready video by default, and answers 400 for a pet without videos', async () => {
    const res = await api('POST', `/pets/${petId}/respiratory-rate`, { key: owner.api_key, body: {} });
    expect(res.status).toBe(202);
    expect(res.body.video_id).toBe(videoIds.get(null));

    const bare = (await aPet(owner.api_key)).body.id;
    const none = await api('POST', `/pets/${bare}/respiratory-rate`, { key: owner.api_key, body: {} });
    expect(none.status).toBe(400);
    expect(none.body).toMatchObject({ code: 'pet_has_no_videos' });
  });

  it("answers 403 for another account's pet and for an account without the early-access feature", async () => {
    const other = await createAccount({ features: ['respiratory_rate'] });
    const plain = await createAccount();
    const foreign = await api('POST', `/pets/${petId}/respiratory-rate`, { key: other.api_key, body: {} });
    const withoutFeature = await api('POST', `/pets/${petId}/respiratory-rate`, { key: plain.api_key, body: {} });
    expect([foreign.status, withoutFeature.status]).toEqual([403, 403]);
    expect(withoutFeature.body.code).toBe('feature_not_enabled');
  });
});
