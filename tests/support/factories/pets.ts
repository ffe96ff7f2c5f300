// Pets through the running local service: multipart helpers, photos made by sharp, polling until processing is done.
import sharp from 'sharp';
import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, inject } from 'vitest';
import { api, send, type ApiResponse } from '../api-client.ts';
import { until } from '../polling.ts';
import { visionRules } from '../vision-control.ts';
import { type BreathingVideo, renderBreathingVideo } from '../breathing-video.ts';

/** A source with structure and many colours: a gradient sky, a cartoon dog, a ball. */
export const aSourcePhoto = (width = 480, height = 360) =>
  sharp(
    Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
      <defs><linearGradient id="sky" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#7ab8f5"/><stop offset="1" stop-color="#f5d27a"/></linearGradient></defs>
      <rect width="100%" height="100%" fill="url(#sky)"/>
      <ellipse cx="${width * 0.45}" cy="${height * 0.6}" rx="${width * 0.22}" ry="${height * 0.16}" fill="#8b5a2b"/>
      <circle cx="${width * 0.66}" cy="${height * 0.42}" r="${height * 0.12}" fill="#a0522d"/>
      <ellipse cx="${width * 0.72}" cy="${height * 0.33}" rx="${height * 0.05}" ry="${height * 0.1}" fill="#5c3317"/>
      <circle cx="${width * 0.69}" cy="${height * 0.4}" r="${height * 0.015}" fill="#000"/>
      <rect x="${width * 0.3}" y="${height * 0.7}" width="${width * 0.04}" height="${height * 0.2}" fill="#5c3317"/>
      <rect x="${width * 0.55}" y="${height * 0.7}" width="${width * 0.04}" height="${height * 0.2}" fill="#5c3317"/>
      <circle cx="${width * 0.15}" cy="${height * 0.85}" r="${height * 0.07}" fill="#e23b3b"/>
    </svg>`),
  )
    .jpeg({ quality: 92 })
    .toBuffer();

/** A JPEG of the given size whose pixels depend on `seed` (different seeds, different bytes). */
/**
 * A solid-colour JPEG, the same bytes for the same seed. The colour comes from a hash of the seed: photos are
 * deduplicated by content, so two seeds must not share a colour (a linear formula repeated every 256 seeds).
 */
export const aPhoto = (seed = 1, width = 64, height = 48) => {
  const [r, g, b] = createHash('sha256').update(String(seed)).digest();
  return sharp({ create: { width, height, channels: 3, background: { r: r!, g: g!, b: b! } } })
    .jpeg()
    .toBuffer();
};

export async function postForm(
  path: string,
  key: string,
  files: { field: string; bytes: Buffer; filename?: string }[],
  fields: Record<string, string> = {},
): Promise<ApiResponse> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const f of files) form.append(f.field, new Blob([new Uint8Array(f.bytes)]), f.filename ?? 'file.bin');
  return send('POST', path, { headers: { 'x-api-key': key }, body: form });
}

export function aPet(key: string, fields: Record<string, string> = {}, photos: Buffer[] = []) {
  return postForm(
    '/pets',
    key,
    photos.map((bytes, i) => ({ field: 'images', bytes, filename: `photo-${i}.jpg` })),
    { name: 'Rex', species_id: 'dog', ...fields },
  );
}

export const addPhotos = (key: string, petId: string, photos: Buffer[]) =>
  postForm(
    `/pets/${petId}/images`,
    key,
    photos.map((bytes, i) => ({ field: 'images', bytes, filename: `photo-${i}.jpg` })),
  );

/** Polls one pet image until it leaves pending/awaiting_upload. */
export const settled = (key: string, petId: string, imageId: string, ms?: number) =>
  until(
    () => api('GET', `/pets/${petId}/images/${imageId}`, { key }),
    (r) => r.body?.status === 'ready' || r.body?.status === 'rejected',
    ms,
  );

/** Every object key in the local media bucket under `prefix` (the tests count what a deletion left). */
export async function bucketKeys(prefix: string): Promise<string[]> {
  const { S3Client, ListObjectsV2Command } = await import('@aws-sdk/client-s3');
  const env = inject('localEnv');
  const s3 = new S3Client({
    endpoint: env.AWS_ENDPOINT_URL_S3,
    forcePathStyle: true,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const page = await s3.send(
      new ListObjectsV2Command({ Bucket: 'pet-api-media', Prefix: prefix, ContinuationToken: token }),
    );
    keys.push(...(page.Contents ?? []).map((o) => o.Key!));
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  s3.destroy();
  return keys;
}

/** Step two of the two-step upload as a client does it: PUT every part to its URL, then complete with the ETags. */
export async function sendParts(
  key: string,
  petId: string,
  slot: { id: string; upload: { parts: { part_number: number; size: number; url: string }[]; part_size: number } },
  bytes: Buffer,
): Promise<ApiResponse> {
  const parts = await Promise.all(
    slot.upload.parts.map(async (part) => {
      const start = (part.part_number - 1) * slot.upload.part_size;
      const res = await fetch(part.url, {
        method: 'PUT',
        body: new Uint8Array(bytes.subarray(start, start + part.size)),
      });
      if (res.status !== 200) throw new Error(`part ${part.part_number}: ${res.status} ${await res.text()}`);
      return { part_number: part.part_number, etag: res.headers.get('etag')! };
    }),
  );
  return api('POST', `/pets/${petId}/uploads/${slot.id}/complete`, { key, body: { parts } });
}

/** A pet with a unique name (the fake vision server's rules and call log select by it) and its photos processed. */
export async function aPetWithReadyPhotos(key: string, fields: Record<string, string> = {}, photoCount = 1) {
  const name = `Rex-${randomUUID().slice(0, 8)}`;
  const photos = await Promise.all(
    Array.from({ length: photoCount }, (_, i) => aPhoto(Math.floor(Math.random() * 1e6) + i, 320, 240)),
  );
  const created = await aPet(key, { name, ...fields }, photos);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const pet = created.body;
  for (const image of pet.images ?? []) expect((await settled(key, pet.id, image.id)).body.status).toBe('ready');
  return { id: pet.id as string, name, imageIds: (pet.images ?? []).map((i: { id: string }) => i.id) as string[] };
}

/** A pet with a ready photo and a body condition result of score 7 from the fake vision server, for review. */
export async function aPetWithBodyConditionResult(
  key: string,
  fields: Record<string, string> = {},
  explanation = 'Waist barely visible',
) {
  const pet = await aPetWithReadyPhotos(key, fields);
  await visionRules({
    match: pet.name,
    name: 'body_condition_score',
    mode: 'ok',
    answer: { score: 7, confidence: 0.8, explanation, recommendations: ['Cut treats'] },
  });
  const result = await api('POST', `/pets/${pet.id}/body-condition-score`, { key });
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  return { ...pet, analysisId: result.body.id as string };
}

/** Renders each breathing video in `dir`, uploads it to the pet and waits until every one is ready: their ids. */
export async function readyBreathingVideos(key: string, petId: string, dir: string, videos: BreathingVideo[]) {
  const ids: string[] = [];
  for (const video of videos) {
    const file = join(dir, `${ids.length}.mp4`);
    await renderBreathingVideo(file, video);
    const res = await postForm(`/pets/${petId}/videos`, key, [
      { field: 'file', bytes: readFileSync(file), filename: 'breathing.mp4' },
    ]);
    ids.push(res.body.id);
  }
  for (const id of ids) expect((await settled(key, petId, id, 30_000)).body.status).toBe('ready');
  return ids;
}
