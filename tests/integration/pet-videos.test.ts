import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ffmpegInstaller from '@ffmpeg-installer/ffmpeg';
import ffprobeInstaller from '@ffprobe-installer/ffprobe';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, createAccount } from '../support/api-client.ts';
import { aPet, postForm, sendParts, settled } from '../support/factories/pets.ts';

// Fixtures are made here by the same ffmpeg the service uses: two seconds of a test pattern in each container.
const dir = mkdtempSync(join(tmpdir(), 'pet-videos-'));
const ffmpeg = (args: string[]) => execFileSync(ffmpegInstaller.path, ['-v', 'error', '-y', ...args]);
const pattern = ['-f', 'lavfi', '-i', 'testsrc=duration=2:size=160x120:rate=25'];
const FORMATS = {
  mp4: { args: ['-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-f', 'mp4'], type: 'video/mp4', codec: 'h264' },
  mov: { args: ['-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-f', 'mov'], type: 'video/quicktime', codec: 'h264' },
  webm: { args: ['-c:v', 'libvpx', '-b:v', '200k', '-f', 'webm'], type: 'video/webm', codec: 'vp8' },
  avi: { args: ['-c:v', 'mpeg4', '-f', 'avi'], type: 'video/x-msvideo', codec: 'mpeg4' },
  mpeg: { args: ['-c:v', 'mpeg1video', '-f', 'mpeg'], type: 'video/mpeg', codec: 'mpeg1video' },
  '3gp': {
    args: ['-c:v', 'libx264', '-profile:v', 'baseline', '-pix_fmt', 'yuv420p', '-f', '3gp'],
    type: 'video/3gpp',
    codec: 'h264',
  },
} as const;

function makeVideo(name: string, args: string[], extra: string[] = []): Buffer {
  const file = join(dir, name);
  ffmpeg([...pattern, ...extra, ...args, file]);
  return readFileSync(file);
}

const tagsOf = (bytes: Buffer) => {
  const file = join(dir, `probe-${Math.random()}`);
  writeFileSync(file, bytes);
  const out = execFileSync(ffprobeInstaller.path, ['-v', 'error', '-print_format', 'json', '-show_format', file]);
  return (JSON.parse(out.toString()) as { format: { tags?: Record<string, string> } }).format.tags ?? {};
};

describe('pet videos against the local stack with real ffprobe and ffmpeg', () => {
  let owner: { id: string; api_key: string };
  let petId: string;
  const videos: Record<string, Buffer> = {};
  beforeAll(async () => {
    owner = await createAccount({ quota: 100 });
    petId = (await aPet(owner.api_key, { name: 'Movie star' })).body.id;
    for (const [name, f] of Object.entries(FORMATS)) videos[name] = makeVideo(`clip.${name}`, [...f.args]);
  }, 60_000);

  it.each(Object.keys(FORMATS))('takes %s, then reads duration, size and codec and makes a poster', async (name) => {
    const format = FORMATS[name as keyof typeof FORMATS];
    const res = await postForm(`/pets/${petId}/videos`, owner.api_key, [
      { field: 'file', bytes: videos[name]!, filename: `clip.${name}` },
    ]);

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ kind: 'video', status: 'pending', content_type: format.type, pet_id: petId });
    const ready = await settled(owner.api_key, petId, res.body.id, 30_000);
    expect(ready.body).toMatchObject({ status: 'ready', width: 160, height: 120, codec: format.codec });
    expect(ready.body.duration_s).toBeGreaterThan(1.9);
    expect(ready.body.duration_s).toBeLessThan(2.2);
    const poster = await sharp(Buffer.from(await (await fetch(ready.body.thumbnail_url)).arrayBuffer())).metadata();
    expect([poster.format, poster.width, poster.height]).toEqual(['jpeg', 160, 120]);
    expect((await fetch(ready.body.url)).status).toBe(200);
  });

  it('serves a copy without the recording location a phone writes into the file', async () => {
    const located = makeVideo(
      'located.mp4',
      [...FORMATS.mp4.args],
      ['-metadata', 'location=+51.5074-000.1278/', '-metadata', 'title=Walk'],
    );
    expect(tagsOf(located)).toMatchObject({ location: '+51.5074-000.1278/' });
    const res = await postForm(`/pets/${petId}/videos`, owner.api_key, [{ field: 'file', bytes: located }]);

    const ready = await settled(owner.api_key, petId, res.body.id, 30_000);
    const served = Buffer.from(await (await fetch(ready.body.url)).arrayBuffer());
    expect(tagsOf(served).location).toBeUndefined();
    expect(tagsOf(served).title).toBeUndefined();
  });

  it('answers 415 naming the accepted list for anything else, judged by bytes (Matroska, text named .mp4)', async () => {
    const mkv = makeVideo('clip.mkv', ['-c:v', 'mpeg4', '-f', 'matroska']);
    for (const bytes of [mkv, Buffer.from('not a video at all')]) {
      const res = await postForm(`/pets/${petId}/videos`, owner.api_key, [
        { field: 'file', bytes, filename: 'clip.mp4' },
      ]);
      expect(res.status).toBe(415);
      expect(res.body.message).toBe(
        'Videos must be MP4, MOV, WebM, AVI, MPEG or 3GP (judged by the file content, not its name)',
      );
      expect(res.body.accepted).toEqual([
        'video/mp4',
        'video/quicktime',
        'video/webm',
        'video/x-msvideo',
        'video/mpeg',
        'video/3gpp',
      ]);
    }
  });

  it('rejects a corrupt video with the reason instead of leaving it pending', async () => {
    const corrupt = Buffer.concat([videos.mp4!.subarray(0, 64), Buffer.alloc(4000, 7)]);
    const res = await postForm(`/pets/${petId}/videos`, owner.api_key, [{ field: 'file', bytes: corrupt }]);

    expect(res.status).toBe(200);
    const done = await settled(owner.api_key, petId, res.body.id, 30_000);
    expect(done.body).toMatchObject({ status: 'rejected', reason: expect.stringContaining('could not be read') });
  });

  it('takes a 150 MB video through the two-step flow and counts it against the quota', async () => {
    const account = await createAccount({ quota: 5 });
    const pet = (await aPet(account.api_key)).body;
    // Noise does not compress: about 100 frames of 720p noise at the best quality are 150 MB.
    const file = join(dir, 'big.mp4');
    execFileSync(ffmpegInstaller.path, [
      '-v',
      'error',
      '-y',
      '-f',
      'rawvideo',
      '-pix_fmt',
      'yuv420p',
      '-s',
      '1280x720',
      '-r',
      '25',
      '-i',
      '/dev/urandom',
      '-frames:v',
      '90',
      '-c:v',
      'mpeg4',
      '-q:v',
      '1',
      '-f',
      'mp4',
      file,
    ]);
    const big = readFileSync(file);
    expect(big.length).toBeGreaterThan(140 * 1024 * 1024);

    const slot = await api('POST', `/pets/${pet.id}/uploads`, {
      key: account.api_key,
      body: { kind: 'video', content_type: 'video/mp4', size: big.length, filename: 'big.mp4' },
    });
    expect(slot.status).toBe(201);
    expect((await sendParts(account.api_key, pet.id, slot.body, big)).status).toBe(200);

    const ready = await settled(account.api_key, pet.id, slot.body.id, 90_000);
    expect(ready.body).toMatchObject({
      status: 'ready',
      kind: 'video',
      width: 1280,
      height: 720,
      codec: 'mpeg4',
      bytes: big.length,
    });
    expect((await api('GET', '/accounts/quota', { key: account.api_key })).body.usage).toBe(1);
    expect((await api('GET', `/pets/${pet.id}`, { key: account.api_key })).body.video_count).toBe(1);
    const tooBig = await api('POST', `/pets/${pet.id}/uploads`, {
      key: account.api_key,
      body: { kind: 'video', content_type: 'video/mp4', size: 201 * 1024 * 1024 },
    });
    expect(tooBig.status).toBe(400);
  }, 180_000);
});
