import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Architecture, Code, LayerVersion, Runtime } from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { ROOT } from './lambda-defaults.ts';

// Native media tools for the processors, taken from the npm packages `npm ci` installed (the binaries ship inside
// them; nothing is downloaded at build time). Those are the linux-x64 builds, so the media processors run on x86_64.
export const MEDIA_ARCHITECTURE = Architecture.X86_64;

const LAYERS_DIR = join(ROOT, '.local', 'layers');
/** Package folders are found by name under node_modules (some packages export no package.json subpath). */
const packageDir = (name: string) => join(ROOT, 'node_modules', name);

/**
 * Copies the packages into a layer folder (Lambda mounts a layer at /opt). The folder is named by what it holds and
 * filled under a temporary name first, so synths running at once (tests, `cdk synth`) never see it half-written.
 */
function stage(name: string, copies: [source: string, target: string][]): string {
  const installed = copies.map(([source]) => [source, statSync(source).mtimeMs]);
  const dir = join(
    LAYERS_DIR,
    `${name}-${createHash('sha256').update(JSON.stringify(installed)).digest('hex').slice(0, 12)}`,
  );
  if (existsSync(dir)) return dir;
  const staging = `${dir}.${process.pid}`;
  for (const [source, target] of copies) {
    mkdirSync(dirname(join(staging, target)), { recursive: true });
    cpSync(source, join(staging, target), { recursive: true, dereference: true });
  }
  try {
    renameSync(staging, dir);
  } catch {
    rmSync(staging, { recursive: true, force: true }); // another synth finished the same folder first
  }
  return dir;
}

/** sharp and libvips as /opt/nodejs/node_modules, which Node resolves for functions that keep `sharp` external. */
export function sharpLayer(scope: Construct): LayerVersion {
  const modules = [
    'sharp',
    '@img/colour',
    'detect-libc',
    'semver',
    '@img/sharp-linux-x64',
    '@img/sharp-libvips-linux-x64',
  ];
  const dir = stage(
    'sharp',
    modules.map((m) => [packageDir(m), join('nodejs', 'node_modules', m)]),
  );
  return new LayerVersion(scope, 'SharpLayer', {
    code: Code.fromAsset(dir),
    compatibleRuntimes: [Runtime.NODEJS_22_X],
    compatibleArchitectures: [MEDIA_ARCHITECTURE],
    description: 'sharp 0.35 with libvips (linux-x64) for pet photo processing and portraits',
  });
}

/** Static ffmpeg and ffprobe builds as /opt/bin/ffmpeg and /opt/bin/ffprobe (GPL: run as processes, never linked). */
export function ffmpegLayer(scope: Construct): LayerVersion {
  const ffmpeg = join(packageDir('@ffmpeg-installer/linux-x64'), 'ffmpeg');
  const ffprobe = join(packageDir('@ffprobe-installer/linux-x64'), 'ffprobe');
  for (const binary of [ffmpeg, ffprobe])
    if (!existsSync(binary)) throw new Error(`${binary} is missing: run npm ci on linux-x64`);
  const dir = stage('ffmpeg', [
    [ffmpeg, 'bin/ffmpeg'],
    [ffprobe, 'bin/ffprobe'],
  ]);
  return new LayerVersion(scope, 'FfmpegLayer', {
    code: Code.fromAsset(dir),
    compatibleArchitectures: [MEDIA_ARCHITECTURE],
    description: 'ffmpeg 4.1 and ffprobe 5.2 static builds (linux-x64, GPLv3) for pet video processing',
  });
}
