// The web console (docs/console.md): a Preact app under console/src, built by scripts/console/build.ts into
// content-hashed files in console/dist with a manifest naming them. GET /v1/console is the page, its script and style
// come from GET /v1/console/assets/{file}; the page talks only to this API, with the caller's own key.
import { readFileSync } from 'node:fs';
import * as z from 'zod/mini';
import type { Config } from '../config.ts';
import { bundledFile } from './served-document.ts';

/** The build's folder in the repository (and, at the same path, in the function's package: `bundledFiles`). */
export const CONSOLE_DIST = 'console/dist';
export const CONSOLE_MANIFEST = 'manifest.json';

const manifestSchema = z.object({
  script: z.string(),
  style: z.string(),
  /** Every file the build wrote: the only names GET /console/assets/{file} answers. */
  files: z.array(z.string()),
});
export type ConsoleManifest = z.infer<typeof manifestSchema>;

let manifest: ConsoleManifest | undefined;

/** The build's manifest, read once per container (a new build is a new deployment or a new `npm start`). */
export function consoleManifest(): ConsoleManifest {
  manifest ??= manifestSchema.parse(
    JSON.parse(readFileSync(bundledFile(`${CONSOLE_DIST}/${CONSOLE_MANIFEST}`), 'utf8')),
  );
  return manifest;
}

export const consolePage = ({ script, style }: ConsoleManifest) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Pet API console</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="console/assets/${style}">
<script type="module" src="console/assets/${script}"></script>
</head>
<body>
<div id="console"><noscript>The console needs JavaScript.</noscript></div>
</body>
</html>
`;

/** Where photos and videos come from: the public media address and the bucket's signed URLs. */
function mediaOrigins(config: Pick<Config, 'mediaBaseUrl' | 's3Endpoint'>): string {
  const signed = config.s3Endpoint ? new URL(config.s3Endpoint).origin : 'https://*.amazonaws.com';
  return `${new URL(config.mediaBaseUrl).origin} ${signed}`;
}

/**
 * Scripts and styles from this origin only (none inline), requests to this API only, images and videos from the
 * media origins; no framing, no form posts elsewhere, no referrer (the page's URL holds nothing secret, but still).
 */
export function consolePageHeaders(config: Pick<Config, 'mediaBaseUrl' | 's3Endpoint'>): Record<string, string> {
  const media = mediaOrigins(config);
  return {
    'content-security-policy': [
      "default-src 'none'",
      "script-src 'self'",
      "style-src 'self'",
      `img-src 'self' data: ${media}`,
      `media-src ${media}`,
      "connect-src 'self'",
      "base-uri 'none'",
      "form-action 'none'",
      "frame-ancestors 'none'",
    ].join('; '),
    // The page names the current build's files, so it is checked each time; the files themselves never change.
    'cache-control': 'no-cache',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
  };
}

/** A file's name holds its content hash: a client may keep it for a year without asking again. */
export const CONSOLE_ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/** The content type of a file the build wrote, or undefined for any other name. */
export function consoleAssetType(file: string): string | undefined {
  if (!consoleManifest().files.includes(file)) return undefined;
  return CONTENT_TYPES[file.slice(file.lastIndexOf('.'))];
}

export const consoleAssetText = (file: string) => readFileSync(bundledFile(`${CONSOLE_DIST}/${file}`), 'utf8');
