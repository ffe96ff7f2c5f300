import { describe, expect, it } from 'vitest';
import {
  bandPass,
  detrend,
  dominantPeak,
  fft,
  type FrameStack,
  MIN_QUALITY,
  measureBreathing,
  principalComponent,
  withoutLighting,
} from '../../../shared/domain/respiration/signal.ts';

/** Deterministic uniform numbers in [0, 1) (mulberry32), so every run sees the same noise. */
function seeded(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const sine = (length: number, fps: number, hz: number, phase = 0) =>
  Float64Array.from({ length }, (_, t) => Math.sin((2 * Math.PI * hz * t) / fps + phase));

/**
 * The frames a camera would give of a breathing animal, drawn directly: a bright disc whose radius swings with the
 * breaths on a darker background, plus sensor noise and a slow brightening of the whole picture. `bpm: 0` draws a
 * disc that does not move, `null` no disc; `flicker` swings the whole picture's lighting, added (a brightness offset)
 * or multiplied (a gain, as a lamp or the exposure changes it).
 */
function breathingFrames(options: {
  bpm: number | null;
  seconds: number;
  brightness?: number;
  contrast?: number;
  seed?: number;
  flicker?: { bpm: number; kind: 'offset' | 'gain' };
}) {
  const [width, height, fps] = [64, 48, 10];
  const count = Math.round(options.seconds * fps);
  const random = seeded(options.seed ?? 1);
  const luma = new Uint8Array(count * width * height);
  const base = options.brightness ?? 70;
  const contrast = options.contrast ?? 80;
  for (let t = 0; t < count; t++) {
    const radius = 12 + (options.bpm ? 2.5 * Math.sin((2 * Math.PI * options.bpm * t) / (60 * fps)) : 0);
    const drift = ((base / 3) * t) / count;
    const swing = options.flicker ? Math.sin((2 * Math.PI * options.flicker.bpm * t) / (60 * fps)) : 0;
    const light = (v: number) => (options.flicker?.kind === 'gain' ? v * (1 + 0.15 * swing) : v + 20 * swing);
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) {
        const inside = options.bpm !== null && Math.hypot(x - width / 2, y - height / 2) < radius;
        const value = light((inside ? base + contrast : base) + drift) + (random() - 0.5) * (contrast / 1.6);
        luma[t * width * height + y * width + x] = Math.max(0, Math.min(255, Math.round(value)));
      }
  }
  return { width, height, fps, count, luma } satisfies FrameStack;
}

describe('fft', () => {
  it('agrees with the plain discrete Fourier transform and inverts back to the input', () => {
    const random = seeded(7);
    const input = Float64Array.from({ length: 16 }, () => random() - 0.5);
    const re = Float64Array.from(input);
    const im = new Float64Array(16);
    fft(re, im);
    for (let k = 0; k < 16; k++) {
      let sumRe = 0;
      let sumIm = 0;
      input.forEach((v, t) => {
        sumRe += v * Math.cos((-2 * Math.PI * k * t) / 16);
        sumIm += v * Math.sin((-2 * Math.PI * k * t) / 16);
      });
      expect(re[k]).toBeCloseTo(sumRe, 9);
      expect(im[k]).toBeCloseTo(sumIm, 9);
    }
    fft(re, im, true);
    for (const [t, v] of input.entries()) expect(re[t]! / 16).toBeCloseTo(v, 9);
  });

  it('refuses a length that is not a power of two', () => {
    expect(() => fft(new Float64Array(12), new Float64Array(12))).toThrow('not a power of two');
  });
});

describe('detrend and band-pass', () => {
  it('removes a straight line (lighting drift) and the mean', () => {
    const drifting = Float64Array.from({ length: 100 }, (_, t) => 40 + 0.3 * t + Math.sin(t));
    const flat = detrend(drifting);
    expect(Math.abs(flat.reduce((a, b) => a + b, 0) / 100)).toBeLessThan(0.05);
    expect(Math.abs(flat[99]! - flat[0]!)).toBeLessThan(2.5);
  });

  it('keeps a breathing-band sine and removes what lies outside the band', () => {
    const breathing = sine(300, 10, 0.4);
    const flicker = sine(300, 10, 3);
    const filtered = bandPass(
      breathing.map((v, t) => v + flicker[t]!),
      10,
      0.1,
      1.5,
    );
    const error = filtered.slice(50, 250).reduce((sum, v, i) => sum + (v - breathing[i + 50]!) ** 2, 0) / 200;
    expect(error).toBeLessThan(0.01);
  });
});

describe('dominantPeak', () => {
  it('finds a frequency between FFT bins to a small fraction of a breath per minute', () => {
    const random = seeded(3);
    for (const bpm of [7.3, 18.6, 33.3, 61.7, 88]) {
      const noisy = sine(300, 10, bpm / 60).map((v) => v + (random() - 0.5));
      const peak = dominantPeak(noisy, 10, 0.1, 1.5);
      expect(Math.abs(peak.hz * 60 - bpm)).toBeLessThan(0.3);
      expect(peak.quality).toBeGreaterThan(MIN_QUALITY);
    }
  });

  it('gives white noise a quality below the threshold', () => {
    const random = seeded(11);
    for (let trial = 0; trial < 20; trial++) {
      const noise = Float64Array.from({ length: 300 }, () => random() - 0.5);
      expect(dominantPeak(noise, 10, 0.1, 1.5).quality).toBeLessThan(MIN_QUALITY);
    }
  });
});

describe('principalComponent', () => {
  it('recovers a signal that pixels follow with opposite signs, where their mean would cancel it', () => {
    const breathing = sine(200, 10, 0.5);
    const random = seeded(5);
    const pixels = Array.from({ length: 40 }, (_, i) =>
      breathing.map((v) => (i % 2 === 0 ? v : -v) + (random() - 0.5) * 0.2),
    );
    const course = principalComponent(pixels);
    const correlation = Math.abs(
      course.reduce((sum, v, t) => sum + v * breathing[t]!, 0) /
        Math.sqrt(course.reduce((s, v) => s + v * v, 0) * breathing.reduce((s, v) => s + v * v, 0)),
    );
    expect(correlation).toBeGreaterThan(0.99);
  });
});

describe('measureBreathing on synthetic frames (noise and lighting drift)', () => {
  it.each([12, 20, 30, 45])('measures %i breaths per minute within ±1.5', (bpm) => {
    const result = measureBreathing(breathingFrames({ bpm, seconds: 20 }));
    expect(result.status).toBe('completed');
    if (result.status === 'completed') expect(Math.abs(result.breathsPerMinute - bpm)).toBeLessThanOrEqual(1.5);
  });

  it('ends failed (no periodic motion) on pure noise', () => {
    for (const seed of [1, 2, 3])
      expect(measureBreathing(breathingFrames({ bpm: null, seconds: 20, seed }))).toMatchObject({
        status: 'failed',
        reason: 'no_periodic_motion',
      });
  });

  it.each(['offset', 'gain'] as const)(
    'ends failed (no periodic motion) on a still picture whose lighting flickers (%s) at 20 per minute',
    (kind) => {
      expect(measureBreathing(breathingFrames({ bpm: 0, seconds: 20, flicker: { bpm: 20, kind } }))).toMatchObject({
        status: 'failed',
        reason: 'no_periodic_motion',
      });
    },
  );

  it.each([
    [12, 20, 'offset'],
    [30, 20, 'gain'],
    [20, 45, 'offset'],
  ] as const)(
    'measures a faint %i breaths per minute under a lighting flicker at %i per minute (%s)',
    (bpm, flickerBpm, kind) => {
      // A low-contrast chest under a strong flicker: measured by brightness alone, the flicker wins.
      const frames = breathingFrames({ bpm, seconds: 20, contrast: 30, flicker: { bpm: flickerBpm, kind } });
      const result = measureBreathing(frames);
      expect(result.status).toBe('completed');
      if (result.status === 'completed') expect(Math.abs(result.breathsPerMinute - bpm)).toBeLessThanOrEqual(1.5);
    },
  );

  it('takes out a change of the whole picture exactly, gain or offset, and keeps what changes in one part', () => {
    const [width, height, count] = [4, 1, 3];
    const picture = [10, 40, 70, 100];
    // Frame 1: the lighting doubled and raised by 7; frame 2: one pixel (the "chest") brighter by 40.
    const luma = Uint8Array.from([
      ...picture,
      ...picture.map((v) => 2 * v + 7),
      ...picture.map((v, i) => (i === 1 ? v + 40 : v)),
    ]);
    const residual = withoutLighting({ width, height, fps: 10, count, luma }, Uint8Array.from([1, 0, 1, 1]));
    for (const t of [0, 1, 2]) for (const pixel of [0, 2, 3]) expect(residual[t * width + pixel]).toBeCloseTo(0, 3);
    // The unfitted pixel, under the same lighting in frames 0 and 2, keeps the 40 by which it changed.
    expect(residual[2 * width + 1]! - residual[1]!).toBeCloseTo(40, 3);
  });

  it('ends failed on a clip too short or too dark to judge', () => {
    expect(measureBreathing(breathingFrames({ bpm: 20, seconds: 8 }))).toMatchObject({ reason: 'too_short' });
    expect(measureBreathing(breathingFrames({ bpm: 20, seconds: 20, brightness: 8, contrast: 16 }))).toMatchObject({
      reason: 'too_dark',
    });
  });
});
