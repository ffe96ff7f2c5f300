// The headless browser of the reference-page test: Debian's chromium, installed by .ci/run (no browser download).
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

export function chromiumPath(): string {
  const found = [process.env.CHROMIUM_PATH, ...CANDIDATES].find((path) => path && existsSync(path));
  if (!found) {
    throw new Error(
      `No Chromium found (tried CHROMIUM_PATH and ${CANDIDATES.join(', ')}): run .ci/run, or apt-get install chromium`,
    );
  }
  return found;
}

export const launchChromium = () =>
  // --no-sandbox: CI runs as root, where Chromium's sandbox cannot start.
  chromium.launch({ executablePath: chromiumPath(), headless: true, args: ['--no-sandbox'] });
