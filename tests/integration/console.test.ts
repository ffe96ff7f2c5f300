import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createAccount } from '../support/api-client.ts';
import { launchChromium } from '../support/browser.ts';
import { expectAccessible, openConsole, screenshot, signIn } from '../support/console.ts';
import { aPetWithReadyPhotos } from '../support/factories/pets.ts';
import { startReceiver } from '../support/receiver.ts';

let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

/** What the page keeps in the browser: how many localStorage entries, and the sessionStorage values. */
const storage = (page: Page) =>
  page.evaluate('({ local: localStorage.length, session: Object.values(sessionStorage) })') as Promise<{
    local: number;
    session: string[];
  }>;

describe('GET /v1/console: the page and its files', () => {
  it('serves the page with a strict policy and hashed files cached for a year, gzipped when asked', async () => {
    const page = await fetch(`${inject('baseUrl')}/console`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const policy = page.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("script-src 'self';");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toContain('unsafe-inline');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    const html = await page.text();
    expect(html).not.toMatch(/<script>|<script(?![^>]*\bsrc=)[^>]*>/);

    const script = /src="console\/assets\/(main-[A-Z0-9]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const asset = await fetch(`${inject('baseUrl')}/console/assets/${script}`, {
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-encoding')).toBe('gzip');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(asset.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await asset.text()).length).toBeGreaterThan(1000);

    const missing = await fetch(`${inject('baseUrl')}/console/assets/manifest.json`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { statusCode: number }).statusCode).toBe(404);
  });
});

describe('The web console in a real browser (headless Chromium)', () => {
  it('signs in, shows features, quota and rate limits, keeps the key out of URLs and localStorage, signs out', async () => {
    const account = await createAccount({ features: ['body_condition'] });
    const { page, urls, problems } = await openConsole(browser);
    await expectAccessible(page, 'sign-in');
    await signIn(page, account.api_key);

    await page.getByRole('heading', { name: 'Account' }).waitFor();
    await page.getByRole('list', { name: 'Features' }).getByText('body_condition').waitFor();
    await page.getByRole('table', { name: 'Request rate limits' }).waitFor();
    await expectAccessible(page, 'account');
    await screenshot(page, 'account');

    expect(urls.filter((url) => url.includes(account.api_key))).toEqual([]);
    expect(await storage(page)).toEqual({ local: 0, session: [account.api_key] });
    expect(problems).toEqual([]);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API key').waitFor();
    expect(await storage(page)).toEqual({ local: 0, session: [] });
    await page.close();
  }, 90_000);

  it('shows the API’s 403 for a wrong key and no account data', async () => {
    const { page, problems } = await openConsole(browser);
    await signIn(page, 'live_not-a-key-we-issued');
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('403');
    expect(await alert.textContent()).toContain('invalid_api_key');
    expect(await page.getByRole('navigation', { name: 'Screens' }).count()).toBe(0);
    expect(await storage(page)).toEqual({ local: 0, session: [] });
    await expectAccessible(page, 'sign-in refused');
    await screenshot(page, 'wrong-key');
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it('creates an endpoint with the event picker, sends a test event and shows its delivery in the log', async () => {
    const receiver = await startReceiver(() => ({ status: 200, body: 'thanks from the receiver' }));
    try {
      const account = await createAccount();
      const { page, urls, problems } = await openConsole(browser);
      await signIn(page, account.api_key);
      await page.getByRole('link', { name: 'Webhooks' }).click();
      await page.getByLabel('Endpoint URL').fill(receiver.url);
      await page.getByRole('checkbox', { name: /vote\.created/ }).check();
      await expectAccessible(page, 'webhooks');
      await page.getByRole('button', { name: 'Create endpoint' }).click();
      const secret = page.getByRole('textbox', { name: /Signing secret/ });
      await secret.waitFor();
      expect(await secret.inputValue()).toMatch(/^whsec_/);
      await screenshot(page, 'webhook-created');
      await page.getByRole('button', { name: 'I have copied it' }).click();

      const endpoint = page.getByRole('listitem', { name: receiver.url });
      await endpoint.getByRole('button', { name: 'Send test event' }).click();
      await endpoint.getByRole('status').waitFor();
      expect((await receiver.waitFor(1, 20_000)).length).toBe(1);

      await endpoint.getByRole('link', { name: 'Delivery log' }).click();
      await page.getByRole('heading', { name: 'Delivery log' }).waitFor();
      const delivered = page.getByRole('cell', { name: /delivered \(200\)/ });
      await expect
        .poll(
          async () => {
            await page.getByRole('button', { name: 'Refresh' }).click();
            await page.getByRole('button', { name: 'Refresh' }).isEnabled();
            return delivered.count();
          },
          { timeout: 20_000, interval: 500 },
        )
        .toBe(1);
      expect(await page.getByRole('row').filter({ has: delivered }).textContent()).toContain('thanks from the');
      await expectAccessible(page, 'delivery log');
      await screenshot(page, 'delivery-log');

      await page.getByRole('button', { name: /^Redeliver / }).click();
      await page.getByRole('status').waitFor();
      expect((await receiver.waitFor(2, 20_000)).length).toBe(2);

      expect(urls.filter((url) => url.includes(account.api_key))).toEqual([]);
      expect(problems).toEqual([]);
      await page.close();
    } finally {
      await receiver.close();
    }
  }, 120_000);

  it('rotates the key with a grace period, shows the new key once and carries on with it', async () => {
    const account = await createAccount();
    const { page, urls, problems } = await openConsole(browser);
    await signIn(page, account.api_key);
    await page.getByLabel(/Grace period/).fill('60');
    await page.getByRole('button', { name: 'Rotate API key' }).click();
    const shown = page.getByRole('textbox', { name: /New API key/ });
    await shown.waitFor();
    const newKey = await shown.inputValue();
    expect(newKey).toMatch(/^live_/);
    expect(newKey).not.toBe(account.api_key);
    await expectAccessible(page, 'key rotated');
    await screenshot(page, 'key-rotated');
    // The account screen loads again, with the new key.
    const quota = page.waitForRequest((request) => request.url().endsWith('/accounts/quota'));
    await page.getByRole('button', { name: 'I have copied it' }).click();
    await page.getByRole('heading', { name: 'Account' }).waitFor();
    expect((await quota).headers()['x-api-key']).toBe(newKey);
    expect(await shown.count()).toBe(0);
    expect(await storage(page)).toEqual({ local: 0, session: [newKey] });
    expect(urls.filter((url) => url.includes(account.api_key) || url.includes(newKey))).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it('lists the pets and shows one with its photo thumbnails', async () => {
    const account = await createAccount({ features: ['body_condition'] });
    const pet = await aPetWithReadyPhotos(account.api_key, {}, 2);
    const { page, problems } = await openConsole(browser);
    await signIn(page, account.api_key);
    await page.getByRole('link', { name: 'Pets' }).click();
    await expectAccessible(page, 'pets');
    await page.getByRole('link', { name: pet.name }).click();
    await page.getByRole('heading', { name: pet.name }).waitFor();
    const photos = page.getByRole('list', { name: 'Photo' }).getByRole('img');
    await expect.poll(() => photos.count()).toBe(2);
    // Loaded, not just placed: the page's img-src lets the media origin through.
    await expect
      .poll(() => photos.evaluateAll((images) => images.every((i) => (i as { naturalWidth: number }).naturalWidth > 0)))
      .toBe(true);
    await page
      .getByRole('table', { name: /Body condition/ })
      .or(page.getByText('No body condition'))
      .waitFor();
    await expectAccessible(page, 'pet');
    await screenshot(page, 'pet');
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);
});
