// A cached photo analysis through the local service (API key, pet ownership, ready photos, one result GetItem)
// against a bare SDK GetItem on the same DynamoDB Local, alternating rounds. The model is the fake
// OpenAI-compatible server; after the first call it is never asked again (the bench checks that).
import { randomUUID } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import sharp from 'sharp';
import { healthKey } from '../../shared/db/keys.ts';
import { startFakeVisionServer } from '../local/fake-vision-server.ts';
import { freePort } from '../local/ports.ts';
import { startLocalService } from '../local/service.ts';
import { alternateTimed } from './stats.ts';

export interface AnalysisBench {
  cachedMs: number[];
  bareMs: number[];
  providerCalls: number;
}

const WARMUP = 50;
const ROUNDS = 10;
const PER_ROUND = 50;
/** Pro accounts allow 300 model requests a minute; the run makes WARMUP + ROUNDS × PER_ROUND + ACCOUNTS. */
const ACCOUNTS = 3;

export async function measureCachedAnalysis(): Promise<AnalysisBench> {
  const vision = await startFakeVisionServer();
  Object.assign(process.env, {
    ANALYSIS_PROVIDER: 'openai',
    ANALYSIS_BASE_URL: vision.url,
    ANALYSIS_MODEL: 'bench-vision',
  });
  const service = await startLocalService({
    port: await freePort(),
    dynamoDbPort: 0,
    awsPort: 0,
    persist: false,
    adminApiKey: `live_${randomUUID()}`,
  });
  const ddb = DynamoDBDocumentClient.from(new DynamoDBClient({}));
  try {
    const base = service.gateway.url;
    // Every analysis request counts against its account's `models` rate limit (one conditional write, part of the
    // cost measured), and the run makes more requests than one account may in a minute: it rotates over pro accounts.
    const subjects = await Promise.all(Array.from({ length: ACCOUNTS }, () => analysableSubject(base, service.admin!)));
    let next = 0;
    const analyse = async () => {
      const { key, petId } = subjects[next++ % subjects.length]!;
      const res = await fetch(`${base}/pets/${petId}/estimated-age`, { method: 'POST', headers: { 'x-api-key': key } });
      if (res.status !== 200) throw new Error(`estimated-age answered ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
    };
    const bare = async () => {
      await ddb.send(new GetCommand({ TableName: process.env.TABLE_NAME, Key: healthKey() }));
    };
    for (const _ of subjects) await analyse(); // the one uncached call per pet
    const { subjectMs: cachedMs, baselineMs: bareMs } = await alternateTimed(analyse, bare, {
      warmup: WARMUP,
      rounds: ROUNDS,
      perRound: PER_ROUND,
    });
    return { cachedMs, bareMs, providerCalls: vision.calls.length };
  } finally {
    ddb.destroy();
    await service.stop();
    await vision.close();
  }
}

/** An account on the pro plan with a pet whose one photo is processed. */
async function analysableSubject(base: string, adminKey: string): Promise<{ key: string; petId: string }> {
  const account = (await (
    await fetch(`${base}/accounts`, {
      method: 'POST',
      headers: { 'x-api-key': adminKey, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'bench', plan: 'pro' }),
    })
  ).json()) as { api_key: string };
  const key = account.api_key;
  const form = new FormData();
  form.append('name', 'Bench');
  form.append('species_id', 'dog');
  const photo = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#8b5a2b' } })
    .jpeg()
    .toBuffer();
  form.append('images', new Blob([new Uint8Array(photo)]), 'bench.jpg');
  const pet = (await (
    await fetch(`${base}/pets`, { method: 'POST', headers: { 'x-api-key': key }, body: form })
  ).json()) as {
    id: string;
    images: { id: string }[];
  };
  const imageId = pet.images[0]!.id;
  for (let i = 0; i < 100; i++) {
    const media = (await (
      await fetch(`${base}/pets/${pet.id}/images/${imageId}`, { headers: { 'x-api-key': key } })
    ).json()) as { status: string };
    if (media.status === 'ready') break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return { key, petId: pet.id };
}
