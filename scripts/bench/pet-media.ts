// Pet photo upload through the local gateway (multipart → pipeline → rate slots, hash and quota in one transaction →
// PutObject → pending) against a bare S3 PutObject of the same bytes on the same emulator; and the processor's
// thumbnail work (decode, orient, display copy and thumbnail) per megapixel.
import { randomBytes } from 'node:crypto';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import sharp from 'sharp';
import { putNewAccount } from '../../shared/domain/accounts/store.ts';
import { hashApiKey } from '../../shared/auth/api-keys.ts';
import { getDeps, resetDeps } from '../../shared/deps.ts';
import { derivePhoto } from '../../shared/media/photo-derivatives.ts';
import { startGateway } from '../local/gateway.ts';
import { LOCAL_MEDIA_BUCKET } from '../local/media.ts';
import { startLocalStack } from '../local/stack.ts';
import { median, percentile } from './stats.ts';
import { LOCAL_STAGE } from '../../shared/config.ts';

const ROUNDS = Number(process.env.BENCH_PET_ROUNDS ?? 8);
const PER_ROUND = 25;
const PHOTOS_PER_PET = 50;

/** A 1-megapixel photo-like JPEG (noise over a gradient, so it compresses like a photo, not like a flat colour). */
async function photo(width: number, height: number, seed: number): Promise<Buffer> {
  const noise = randomBytes(width * height * 3);
  for (let i = 0; i < noise.length; i++) noise[i] = (noise[i]! % 48) + ((i / 3) % width) / (width / 160) + (seed % 40);
  return sharp(noise, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 85 })
    .toBuffer();
}

export interface PetMediaBench {
  photoBytes: number;
  gatewayMs: number[];
  bareMs: number[];
  thumbnailMsPerMegapixel: { megapixels: number; ms: number; msPerMegapixel: number }[];
}

export async function measurePetMedia(log: (line: string) => void = () => {}): Promise<PetMediaBench> {
  const stack = await startLocalStack({ dynamoDbPort: 0, awsPort: 0, tableName: 'pet-api-bench-pets' });
  Object.assign(process.env, stack.env, {
    STAGE: LOCAL_STAGE,
    TOKEN_SECRET: 'bench-secret-bench-secret-bench-secret',
    MEDIA_BUCKET: LOCAL_MEDIA_BUCKET,
  });
  resetDeps();
  const gateway = await startGateway({ port: 0 });
  const s3 = new S3Client({ endpoint: stack.awsEndpoint, forcePathStyle: true });
  try {
    await s3
      .send(new (await import('@aws-sdk/client-s3')).CreateBucketCommand({ Bucket: LOCAL_MEDIA_BUCKET }))
      .catch(() => undefined);
    const key = `live_bench_${randomBytes(8).toString('hex')}`;
    const now = new Date().toISOString();
    await putNewAccount(
      getDeps(),
      {
        id: 'bench-pets',
        name: 'Bench',
        email: null,
        role: 'user',
        status: 'active',
        features: [],
        plan: 'pro',
        quota: 1_000_000,
        disabled_capabilities: [],
        created_at: now,
        updated_at: now,
      },
      hashApiKey(key),
    );
    const total = ROUNDS * PER_ROUND + 20;
    const photos = await Promise.all(Array.from({ length: total }, (_, i) => photo(1000, 1000, i)));
    const petIds: string[] = [];
    const newPet = async () => {
      const form = new FormData();
      form.append('name', 'Bench');
      form.append('species_id', 'dog');
      const res = await fetch(`${gateway.url}/pets`, { method: 'POST', headers: { 'x-api-key': key }, body: form });
      petIds.push(((await res.json()) as { id: string }).id);
    };
    let uploaded = 0;
    const viaGateway = async (bytes: Buffer) => {
      if (uploaded % PHOTOS_PER_PET === 0) await newPet();
      uploaded++;
      const form = new FormData();
      form.append('images', new Blob([new Uint8Array(bytes)]), 'photo.jpg');
      const res = await fetch(`${gateway.url}/pets/${petIds.at(-1)}/images`, {
        method: 'POST',
        headers: { 'x-api-key': key },
        body: form,
      });
      if (res.status !== 200) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
    };
    let bareN = 0;
    const bare = async (bytes: Buffer) => {
      await s3.send(
        new PutObjectCommand({
          Bucket: LOCAL_MEDIA_BUCKET,
          Key: `bench/${bareN++}.jpg`,
          Body: bytes,
          ContentType: 'image/jpeg',
        }),
      );
    };
    for (let i = 0; i < 20; i++) {
      await viaGateway(photos[i]!);
      await bare(photos[i]!);
    }
    const gatewayMs: number[] = [];
    const bareMs: number[] = [];
    let next = 20;
    for (let round = 0; round < ROUNDS; round++) {
      const batch = photos.slice(next, next + PER_ROUND);
      next += PER_ROUND;
      const order = round % 2 === 0 ? (['gateway', 'bare'] as const) : (['bare', 'gateway'] as const);
      for (const side of order)
        for (const bytes of batch) {
          const started = performance.now();
          await (side === 'gateway' ? viaGateway(bytes) : bare(bytes));
          (side === 'gateway' ? gatewayMs : bareMs).push(performance.now() - started);
        }
      log(`  pet photos: round ${round + 1}/${ROUNDS}`);
    }
    const thumbnailMsPerMegapixel = [];
    for (const [width, height] of [
      [1000, 1000],
      [2000, 2000],
      [4000, 3000],
    ] as const) {
      const bytes = await photo(width, height, 7);
      await derivePhoto(bytes);
      const samples: number[] = [];
      for (let i = 0; i < 7; i++) {
        const started = performance.now();
        await derivePhoto(bytes);
        samples.push(performance.now() - started);
      }
      const megapixels = (width * height) / 1e6;
      thumbnailMsPerMegapixel.push({ megapixels, ms: median(samples), msPerMegapixel: median(samples) / megapixels });
    }
    return { photoBytes: Math.round(median(photos.map((p) => p.length))), gatewayMs, bareMs, thumbnailMsPerMegapixel };
  } finally {
    s3.destroy();
    await gateway.close();
    await stack.stop();
  }
}

export const petMediaSummary = (r: PetMediaBench) => ({
  p50: { gateway: percentile(r.gatewayMs, 50), bare: percentile(r.bareMs, 50) },
  p99: { gateway: percentile(r.gatewayMs, 99), bare: percentile(r.bareMs, 99) },
});
