// Synthetic "breathing" videos rendered by the same ffmpeg the service uses: a bright disc whose radius swings at a
// known rate on a darker background (a chest seen from above), with sensor noise and the picture slowly brightening
// (auto-exposure creep). `bpm: null` renders the noise and drift alone. Drawn (noise included) at 80×60 and scaled
// up, so rendering stays fast at any output size.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import ffmpegInstaller from '@ffmpeg-installer/ffmpeg';

const run = promisify(execFile);

export interface BreathingVideo {
  bpm: number | null;
  seconds: number;
  /** Output size; the scene is drawn at 80×60 and scaled. Default 160×120. */
  width?: number;
  height?: number;
  fps?: number;
}

export async function renderBreathingVideo(out: string, video: BreathingVideo): Promise<void> {
  const { seconds, width = 160, height = 120, fps = 10 } = video;
  const drift = `30*T/${seconds}`;
  const scene = video.bpm
    ? `if(lt(hypot(X-W/2,Y-H/2),13+2*sin(2*PI*${video.bpm / 60}*T)),150,70)+${drift}`
    : `100+${drift}`;
  await run(ffmpegInstaller.path, [
    ...['-v', 'error', '-nostdin', '-y', '-f', 'lavfi', '-i', `color=c=gray:s=80x60:r=${fps}:d=${seconds}`],
    // Noise is added before scaling: grainy at small sizes, and cheap to encode at 720p.
    ...['-vf', `geq=lum='${scene}':cb=128:cr=128,noise=alls=30:allf=t:all_seed=7,scale=${width}:${height}`],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '28', '-pix_fmt', 'yuv420p', '-movflags', '+faststart'],
    out,
  ]);
}
