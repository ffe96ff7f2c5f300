// ffprobe and ffmpeg as child processes (static GPL builds shipped in npm packages locally, a Lambda layer deployed):
// what a video is (container, codec, dimensions, duration), a poster frame, and a copy without metadata (phones
// write the recording location into MP4/MOV). Every call has a time limit and bounded output.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Config } from '../config.ts';

const run = promisify(execFile);
const PROBE_TIMEOUT_MS = 30_000;
const FFMPEG_TIMEOUT_MS = 120_000;

export interface VideoTools {
  ffmpeg: string;
  ffprobe: string;
}

/** The configured binaries, else the ones inside the npm packages (local mode, tests). */
export async function videoTools(config: Pick<Config, 'ffmpegPath' | 'ffprobePath'>): Promise<VideoTools> {
  const ffmpeg = config.ffmpegPath ?? ((await import('@ffmpeg-installer/ffmpeg')) as { path: string }).path;
  const ffprobe = config.ffprobePath ?? ((await import('@ffprobe-installer/ffprobe')) as { path: string }).path;
  return { ffmpeg, ffprobe };
}

export interface VideoFacts {
  container: string;
  codec: string;
  width: number;
  height: number;
  durationS: number;
}

export class UnreadableVideo extends Error {}

interface ProbeOutput {
  format?: { format_name?: string; duration?: string };
  streams?: { codec_type?: string; codec_name?: string; width?: number; height?: number; duration?: string }[];
}

const firstLine = (error: unknown) =>
  String((error as { stderr?: string }).stderr || (error as Error).message || error)
    .trim()
    .split('\n')
    .slice(-1)[0];

export async function probeVideo(tools: VideoTools, file: string): Promise<VideoFacts> {
  let output: ProbeOutput;
  try {
    const { stdout } = await run(
      tools.ffprobe,
      ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file],
      { timeout: PROBE_TIMEOUT_MS, maxBuffer: 4 * 1024 * 1024 },
    );
    output = JSON.parse(stdout) as ProbeOutput;
  } catch (error) {
    throw new UnreadableVideo(`the video could not be read: ${firstLine(error)}`);
  }
  const video = output.streams?.find((s) => s.codec_type === 'video');
  if (!video?.codec_name || !video.width || !video.height) throw new UnreadableVideo('the file has no video stream');
  const durationS = Number(output.format?.duration ?? video.duration);
  if (!Number.isFinite(durationS) || durationS <= 0) throw new UnreadableVideo('the video has no duration');
  return {
    container: output.format?.format_name ?? 'unknown',
    codec: video.codec_name,
    width: video.width,
    height: video.height,
    durationS: Math.round(durationS * 1000) / 1000,
  };
}

async function ffmpeg(tools: VideoTools, args: string[], what: string): Promise<void> {
  try {
    await run(tools.ffmpeg, ['-v', 'error', '-nostdin', '-y', ...args], {
      timeout: FFMPEG_TIMEOUT_MS,
      maxBuffer: 1024 * 1024,
    });
  } catch (error) {
    throw new UnreadableVideo(`${what} failed: ${firstLine(error)}`);
  }
}

/** One frame (at 1 s, or the middle of a shorter clip) as a JPEG at most 1280 px wide. */
export function posterFrame(tools: VideoTools, file: string, facts: VideoFacts, out: string): Promise<void> {
  const at = Math.min(1, facts.durationS / 2).toFixed(3);
  return ffmpeg(
    tools,
    ['-ss', at, '-i', file, '-frames:v', '1', '-vf', "scale='min(1280,iw)':-2", '-f', 'image2', '-c:v', 'mjpeg', out],
    'the poster frame',
  );
}

/** The ffmpeg muxer of each accepted container. */
export const MUXERS = { mp4: 'mp4', mov: 'mov', webm: 'webm', avi: 'avi', mpeg: 'mpeg', '3gp': '3gp' } as const;

/** The streams as they are (no re-encoding) without global metadata or chapters: no location, no device names. */
export function copyWithoutMetadata(
  tools: VideoTools,
  file: string,
  muxer: (typeof MUXERS)[keyof typeof MUXERS],
  out: string,
): Promise<void> {
  const faststart = ['mp4', 'mov', '3gp'].includes(muxer) ? ['-movflags', '+faststart'] : [];
  return ffmpeg(
    tools,
    [
      '-i',
      file,
      '-map',
      '0:v:0',
      '-map',
      '0:a:0?',
      '-c',
      'copy',
      '-map_metadata',
      '-1',
      '-map_chapters',
      '-1',
      ...faststart,
      '-f',
      muxer,
      out,
    ],
    'removing the metadata',
  );
}

/** How a video is sampled for motion analysis: few, small, grey frames from a bounded stretch of it. */
export interface GrayFrameSampling {
  fps: number;
  width: number;
  height: number;
  /** Only the first this many seconds are decoded, whatever the video's length. */
  maxSeconds: number;
}

/**
 * Decodes the start of a video to raw 8-bit grey frames at a low rate and size (aspect ignored: motion, not shape,
 * matters). Bounded three ways: decoded duration, frame count and output bytes, so a hostile file costs at most that.
 */
export async function grayFrames(
  tools: VideoTools,
  file: string,
  sampling: GrayFrameSampling,
): Promise<{ count: number; luma: Uint8Array }> {
  const frameBytes = sampling.width * sampling.height;
  const maxFrames = Math.ceil(sampling.maxSeconds * sampling.fps);
  const filters = `fps=${sampling.fps},scale=${sampling.width}:${sampling.height}:flags=area,format=gray`;
  try {
    const { stdout } = await run(
      tools.ffmpeg,
      [
        ...['-v', 'error', '-nostdin', '-t', String(sampling.maxSeconds), '-i', file, '-an', '-sn', '-dn'],
        ...['-vf', filters, '-frames:v', String(maxFrames), '-f', 'rawvideo', '-pix_fmt', 'gray', 'pipe:1'],
      ],
      { timeout: FFMPEG_TIMEOUT_MS, maxBuffer: maxFrames * frameBytes + 1024, encoding: 'buffer' },
    );
    const count = Math.floor(stdout.length / frameBytes);
    return { count, luma: new Uint8Array(stdout.buffer, stdout.byteOffset, count * frameBytes) };
  } catch (error) {
    throw new UnreadableVideo(`decoding the frames failed: ${firstLine(error)}`);
  }
}
