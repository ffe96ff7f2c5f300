// Respiratory rate: processing seconds per minute of 720p video (ffmpeg's sampled grey decode plus the signal
// processing, exactly as the consumer runs them) against a bare full decode of the same minute by the same ffmpeg,
// interleaved. The video is a rendered breathing scene (tests/support/breathing-video.ts), so the measured rate is
// checked too.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { SAMPLING } from '../../shared/domain/respiration/service.ts';
import { measureBreathing } from '../../shared/domain/respiration/signal.ts';
import { grayFrames, videoTools } from '../../shared/media/video-tools.ts';
import { renderBreathingVideo } from '../../tests/support/breathing-video.ts';
import { median } from './stats.ts';

const run = promisify(execFile);
const ROUNDS = Number(process.env.BENCH_RESPIRATION_ROUNDS ?? 3);
const BPM = 24;

export interface RespirationBench {
  videoSeconds: number;
  measuredBpm: number | null;
  /** Decode (10 fps grey, 128×96) + signal processing, per round. */
  processingMs: number[];
  /** The same decode step alone (ffmpeg's share). */
  decodeMs: number[];
  /** `ffmpeg -i video -f null -`: every frame decoded at full size, nothing else. */
  bareDecodeMs: number[];
}

export async function measureRespiration(log: (line: string) => void = () => {}): Promise<RespirationBench> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-respiration-'));
  try {
    const file = join(dir, 'minute-720p.mp4');
    const videoSeconds = 60;
    log(`  rendering ${videoSeconds} s of 720p30 breathing video…`);
    await renderBreathingVideo(file, { bpm: BPM, seconds: videoSeconds, width: 1280, height: 720, fps: 30 });
    const tools = await videoTools({ ffmpegPath: undefined, ffprobePath: undefined });
    const result: RespirationBench = {
      videoSeconds,
      measuredBpm: null,
      processingMs: [],
      decodeMs: [],
      bareDecodeMs: [],
    };
    for (let round = 0; round < ROUNDS; round++) {
      let started = performance.now();
      await run(tools.ffmpeg, ['-v', 'error', '-nostdin', '-i', file, '-f', 'null', '-']);
      result.bareDecodeMs.push(performance.now() - started);
      started = performance.now();
      const frames = await grayFrames(tools, file, SAMPLING);
      result.decodeMs.push(performance.now() - started);
      const measurement = measureBreathing({ ...SAMPLING, ...frames });
      result.processingMs.push(performance.now() - started);
      result.measuredBpm = measurement.status === 'completed' ? measurement.breathsPerMinute : null;
      log(
        `  round ${round + 1}: ${(result.processingMs.at(-1)! / 1000).toFixed(2)} s (bare decode ${(result.bareDecodeMs.at(-1)! / 1000).toFixed(2)} s)`,
      );
    }
    return result;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Seconds per minute of video, and the ratio against the bare decode. */
export function respirationSummary(bench: RespirationBench) {
  const perMinute = (ms: number[]) => median(ms) / 1000 / (bench.videoSeconds / 60);
  return {
    processingSecondsPerMinute: perMinute(bench.processingMs),
    decodeSecondsPerMinute: perMinute(bench.decodeMs),
    bareDecodeSecondsPerMinute: perMinute(bench.bareDecodeMs),
    ratio: median(bench.processingMs) / median(bench.bareDecodeMs),
    renderedBpm: BPM,
  };
}
