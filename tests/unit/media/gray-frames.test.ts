import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grayFrames, UnreadableVideo, videoTools } from '../../../shared/media/video-tools.ts';
import { renderBreathingVideo } from '../../support/breathing-video.ts';

describe('grayFrames (the real ffmpeg)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gray-frames-'));
  const video = join(dir, 'clip.mp4');
  beforeAll(() => renderBreathingVideo(video, { bpm: 20, seconds: 4 }));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('decodes only the first maxSeconds, at the given rate and size, one byte per pixel', async () => {
    const tools = await videoTools({ ffmpegPath: undefined, ffprobePath: undefined });
    const frames = await grayFrames(tools, video, { fps: 5, width: 32, height: 24, maxSeconds: 2 });
    expect(frames.count).toBe(10);
    expect(frames.luma).toHaveLength(10 * 32 * 24);
    const mean = frames.luma.reduce((sum, v) => sum + v, 0) / frames.luma.length;
    expect(mean).toBeGreaterThan(60);
    expect(mean).toBeLessThan(160);
  });

  it('reports a file that is no video as unreadable', async () => {
    const junk = join(dir, 'junk.mp4');
    writeFileSync(junk, 'not a video at all');
    const tools = await videoTools({ ffmpegPath: undefined, ffprobePath: undefined });
    await expect(grayFrames(tools, junk, { fps: 5, width: 32, height: 24, maxSeconds: 2 })).rejects.toBeInstanceOf(
      UnreadableVideo,
    );
  });
});
