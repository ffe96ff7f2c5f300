import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifySignature } from '../../shared/webhooks/signature.ts';
import { api, createAccount } from '../support/api-client.ts';
import { aPet, readyBreathingVideos } from '../support/factories/pets.ts';
import { until } from '../support/polling.ts';
import { startReceiver } from '../support/receiver.ts';

// The sequence end to end, on one pet: videos rendered at 20, 21, 20 and 34 breaths a minute give a
// baseline of 20 and one signed `pet.respiratory_rate.alert` (threshold), and a fifth at 26 breaks the rise rule
// (30 % over 20) once the rise is set to 25 %. Clips of 12 s: the shortest this scene measures exactly (10 s clips
// read 19.6 and 20.7), and a measurement needs at least 10 s.
const SECONDS = 12;
const ALERT = 'pet.respiratory_rate.alert';
const COMPLETED = 'pet.respiratory_rate.completed';

describe('respiratory-rate trend and alerts, against the local stack with real ffmpeg', () => {
  let owner: { id: string; api_key: string };
  let petId: string;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let secret: string;
  const videoIds = new Map<number, string>();
  const dir = mkdtempSync(join(tmpdir(), 'breathing-trend-'));

  beforeAll(async () => {
    owner = await createAccount({ quota: 100, features: ['respiratory_rate'] });
    petId = (await aPet(owner.api_key, { name: 'Sleeper', sub_id: 'user-77', external_owner_id: 'owner-77' })).body.id;
    receiver = await startReceiver();
    const hook = await api('POST', '/webhooks', {
      key: owner.api_key,
      body: { url: receiver.url, description: 'trend', enabled_events: [COMPLETED, ALERT] },
    });
    secret = hook.body.signing_secret;
    const rates = [20, 21, 34, 26];
    const ids = await readyBreathingVideos(
      owner.api_key,
      petId,
      dir,
      rates.map((bpm) => ({ bpm, seconds: SECONDS })),
    );
    for (const [i, bpm] of rates.entries()) videoIds.set(bpm, ids[i]!);
  }, 120_000);
  afterAll(async () => {
    await receiver?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const delivered = (type: string) =>
    receiver.received.filter((d) => d.headers['x-webhook-event'] === type).map((d) => JSON.parse(d.body));

  /** Measures the video rendered at `bpm` and waits for its completion's delivery. */
  async function measure(bpm: number) {
    const res = await api('POST', `/pets/${petId}/respiratory-rate`, {
      key: owner.api_key,
      body: { video_id: videoIds.get(bpm) },
    });
    expect(res.status).toBe(202);
    const done = await until(
      async () => delivered(COMPLETED).find((b) => b.id === res.body.id),
      (body) => body !== undefined,
      30_000,
    );
    expect(done, `${bpm} bpm measured`).toMatchObject({ status: 'completed', breaths_per_minute: bpm });
    return res.body.id as string;
  }

  const setRule = async (rule: { threshold_bpm: number; rise_percent: number }) => {
    const res = await api('PATCH', `/pets/${petId}`, { key: owner.api_key, body: { respiratory_alert: rule } });
    expect(res.status).toBe(200);
    expect(res.body.respiratory_alert).toEqual({ ...rule, source: 'owner' });
  };

  it('20, 21, 20 and 34 give a baseline of 20 and exactly one alert, by the threshold, delivered signed', async () => {
    // A rise of 100 % leaves the threshold alone to judge 34.
    await setRule({ threshold_bpm: 30, rise_percent: 100 });
    const ids = [];
    for (const bpm of [20, 21, 20, 34]) ids.push(await measure(bpm));

    const alerts = await until(
      async () => receiver.received.filter((d) => d.headers['x-webhook-event'] === ALERT),
      (found) => found.length > 0,
      15_000,
    );
    expect(alerts).toHaveLength(1);
    const [alert] = alerts;
    const check = verifySignature({
      header: String(alert!.headers['x-webhook-signature']),
      rawBody: alert!.body,
      secret,
      nowSeconds: Math.floor(Date.now() / 1000),
    });
    expect(check.ok).toBe(true);
    expect(JSON.parse(alert!.body)).toMatchObject({
      id: ids[3],
      pet_id: petId,
      status: 'completed',
      breaths_per_minute: 34,
      alert: {
        rules: ['threshold'],
        rule: { threshold_bpm: 30, rise_percent: 100 },
        baseline_bpm: 20,
        baseline_measurements: 3,
        change_percent: 70,
      },
      sub_id: 'user-77',
      external_owner_id: 'owner-77',
      _metadata: { event_type: ALERT },
    });

    const listed = await api('GET', `/pets/${petId}/respiratory-rate`, { key: owner.api_key });
    expect(listed.status).toBe(200);
    expect(listed.body.trend).toMatchObject({
      latest: { id: ids[3], breaths_per_minute: 34 },
      baseline: { breaths_per_minute: 20, measurements: 3, reason: null },
      change: { breaths_per_minute: 14, percent: 70 },
    });
    expect(listed.body.measurements.map((m: { id: string }) => m.id)).toEqual([...ids].reverse());
  }, 180_000);

  it('a fifth at 26 breaks the rise rule (30 % over the baseline of 20) once the rise is set to 25 %', async () => {
    await setRule({ threshold_bpm: 30, rise_percent: 25 });
    const id = await measure(26);

    const alert = await until(
      async () => delivered(ALERT).find((b) => b.id === id),
      (body) => body !== undefined,
      15_000,
    );
    expect(alert).toMatchObject({
      breaths_per_minute: 26,
      alert: { rules: ['rise'], baseline_bpm: 20, baseline_measurements: 4, change_percent: 30 },
    });
    expect(delivered(ALERT)).toHaveLength(2);
  }, 90_000);

  it('keeps each completed measurement as a record of the pet, with the SHA-256 of the video copy it measured', async () => {
    const measured = (await api('GET', `/pets/${petId}/respiratory-rate?limit=10`, { key: owner.api_key })).body
      .measurements as { id: string; video_id: string; breaths_per_minute: number }[];
    const listed = await api('GET', `/pets/${petId}/records?type=respiratory_rate&limit=10`, { key: owner.api_key });

    expect(listed.status).toBe(200);
    expect(listed.body.map((r: { id: string }) => r.id)).toEqual(measured.map((m) => m.id));
    const [latest] = listed.body;
    expect(latest).toMatchObject({
      type: 'respiratory_rate',
      result: { breaths_per_minute: 26, alert: { rules: ['rise'] } },
      inputs: [{ kind: 'video', id: videoIds.get(26) }],
      method_version: 'motion-spectrum-1',
      asked_by: { account_id: owner.id, sub_id: 'user-77' },
    });
    // Anyone holding the served copy can check it is the video the rate was measured from.
    const video = await api('GET', `/pets/${petId}/images/${videoIds.get(26)}`, { key: owner.api_key });
    const served = Buffer.from(await (await fetch(video.body.url)).arrayBuffer());
    expect(latest.inputs[0].sha256).toBe(createHash('sha256').update(served).digest('hex'));

    const exported = await api('GET', `/pets/${petId}/records/export?type=respiratory_rate`, { key: owner.api_key });
    expect(
      exported.body.records.map((r: { result: { breaths_per_minute: number } }) => r.result.breaths_per_minute),
    ).toEqual([20, 21, 20, 34, 26]);
  });
});
