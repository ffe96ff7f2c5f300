// The web console in headless Chromium: a page that records every request URL and console error, an axe-core check
// run through the DevTools protocol (so the console's Content-Security-Policy stays on), and screenshots kept under
// .local/test-output/console.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import axe from 'axe-core';
import type { Browser, Page } from 'playwright-core';
import { expect, inject } from 'vitest';

export const SCREENSHOTS = join('.local', 'test-output', 'console');

export interface ConsolePage {
  page: Page;
  /** Every URL the page requested. */
  urls: string[];
  /** Console errors and page errors, less the browser's own line for each failed response (a 403 shown on purpose). */
  problems: string[];
}

export async function openConsole(browser: Browser): Promise<ConsolePage> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.setDefaultTimeout(20_000);
  const urls: string[] = [];
  const problems: string[] = [];
  page.on('request', (request) => urls.push(request.url()));
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
      problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(`${inject('baseUrl')}/console`);
  return { page, urls, problems };
}

export async function signIn(page: Page, apiKey: string) {
  await page.getByLabel('API key').fill(apiKey);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

interface AxeResult {
  violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[];
}

/** axe-core on the page as it is: no serious or critical violation. */
export async function expectAccessible(page: Page, screen: string) {
  await page.evaluate(axe.source);
  const result = (await page.evaluate('axe.run(document)')) as AxeResult;
  const serious = result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(serious, `axe on ${screen}`).toEqual([]);
}

export async function screenshot(page: Page, name: string) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}
