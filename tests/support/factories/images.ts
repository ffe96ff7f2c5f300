import sharp from 'sharp';
import { expect } from 'vitest';
import { api, send } from '../api-client.ts';
import { until } from '../polling.ts';

/** An approved (processed) upload of the account: a small JPEG of its own colour (`seed` picks it). */
export async function anApprovedUpload(key: string, seed: number): Promise<string> {
  const bytes = await sharp({
    create: { width: 80, height: 60, channels: 3, background: { r: (40 * seed) % 256, g: 120, b: 200 - seed } },
  })
    .jpeg()
    .toBuffer();
  const form = new FormData();
  form.append('file', new Blob([bytes]), `rex-${seed}.jpg`);
  const created = await send('POST', '/images/upload', { headers: { 'x-api-key': key }, body: form });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = created.body.id as string;
  const processed = await until(
    () => api('GET', `/images/${id}`, { key }),
    (r) => r.body.status === 'approved',
  );
  expect(processed.body.status).toBe('approved');
  return id;
}
