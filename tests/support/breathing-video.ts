// Synthetic "breathing" videos rendered by the same ffmpeg the service uses: a bright disc whose radius swings at a
// known rate on a darker background (a chest seen from above), with sensor noise and the picture slowly brightening
// (auto-exposure creep). `bpm: null` renders the noise and drift alone, `bpm: 0` a disc that does not move;
// `flickerBpm` adds a uniform brightness swing of the whole picture (a lamp, a screen, auto-exposure hunting):
// lighting, not breathing. Drawn (noise included) at 80×60 and scaled up, so rendering stays fast at any output size.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import ffmpegInstaller from '@ffmpeg-installer/ffmpeg';

const run = promisify(execFile);

export interface BreathingVideo {
  bpm: number | null;
  seconds: number;
  /** A uniform brightness flicker of the whole picture (±20 of 255) at this rate. */
  flickerBpm?: number;
  /** Output size; the scene is drawn at 80×60 and scaled. Default 160×120. */
  width?: number;
  height?: number;
  fps?: number;
}

export async function renderBreathingVideo(out: string, video: BreathingVideo): Promise<void> {
  const { seconds, width = 160, height = 120, fps = 10 } = video;
  const flicker = video.flickerBpm ? `+20*sin(2*PI*${video.flickerBpm / 60}*T)` : '';
  const lighting = `30*T/${seconds}${flicker}`;
  const scene =
    video.bpm !== null
      ? `if(lt(hypot(X-W/2,Y-H/2),13+2*sin(2*PI*${video.bpm / 60}*T)),150,70)+${lighting}`
      : `100+${lighting}`;
  await run(ffmpegInstaller.path, [
    ...['-v', 'error', '-nostdin', '-y', '-f', 'lavfi', '-i', `color=c=gray:s=80x60:r=${fps}:d=${seconds}`],
    // Noise is added before scaling: grainy at small sizes, and cheap to encode at 720p.
    ...['-vf', `geq=lum='${scene}':cb=128:cr=128,noise=alls=30:allf=t:all_seed=7,scale=${width}:${height}`],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '28', '-pix_fmt', 'yuv420p', '-movflags', '+faststart'],
    out,
  ]);
}
