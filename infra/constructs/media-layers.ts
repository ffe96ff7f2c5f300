import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Architecture, LayerVersion, Runtime } from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { layerCode, packageDir, stageLayer } from './layer-assets.ts';

// Native media tools for the processors, taken from the npm packages `npm ci` installed (the binaries ship inside
// them; nothing is downloaded at build time). Those are the linux-x64 builds, so the media processors run on x86_64.
export const MEDIA_ARCHITECTURE = Architecture.X86_64;

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
  const dir = stageLayer(
    'sharp',
    modules.map((m) => [packageDir(m), join('nodejs', 'node_modules', m)]),
  );
  return new LayerVersion(scope, 'SharpLayer', {
    code: layerCode(dir),
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
  const dir = stageLayer('ffmpeg', [
    [ffmpeg, 'bin/ffmpeg'],
    [ffprobe, 'bin/ffprobe'],
  ]);
  return new LayerVersion(scope, 'FfmpegLayer', {
    code: layerCode(dir),
    compatibleArchitectures: [MEDIA_ARCHITECTURE],
    description: 'ffmpeg 4.1 and ffprobe 5.2 static builds (linux-x64, GPLv3) for pet video processing',
  });
}
