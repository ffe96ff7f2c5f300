import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { adminKey, api, createAccount } from '../support/api-client.ts';
import { launchChromium } from '../support/browser.ts';
import { expectAccessible, openConsole, screenshot, signIn } from '../support/console.ts';
import { anApprovedUpload } from '../support/factories/images.ts';
import { aPetWithBodyConditionResult, aPetWithReadyPhotos } from '../support/factories/pets.ts';
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

describe('Vets and administrators in the console', () => {
  it('a vet finds the pending review in the queue and completes it; a second vet sees the 409; the owner sees the score', async () => {
    const [owner, vet, otherVet] = await Promise.all([
      createAccount({ features: ['body_condition'] }),
      createAccount({ role: 'vet', name: 'Dr Console' }),
      createAccount({ role: 'vet', name: 'Dr Late' }),
    ]);
    // Markup in the model's words must show as text, its line break kept.
    const reasoning = 'Waist barely visible from above, <b>ribs</b> hard to feel.\nNo abdominal tuck.';
    const pet = await aPetWithBodyConditionResult(owner.api_key, {}, reasoning);
    const requested = await api('POST', `/pets/${pet.id}/body-condition-score/reviews`, { key: owner.api_key });
    expect(requested.status, JSON.stringify(requested.body)).toBe(201);

    const first = await openConsole(browser);
    await signIn(first.page, vet.api_key);
    await first.page.getByRole('link', { name: 'Vet reviews' }).click();
    // Oldest first across every account: page on until this pet's review shows.
    // Named by the pet's name; its id tells two pets of one name apart.
    const open = first.page
      .getByRole('row')
      .filter({ hasText: pet.id })
      .getByRole('link', { name: `Open review of ${pet.name}` });
    await first.page.getByRole('table').waitFor();
    while ((await open.count()) === 0) {
      const next = first.page.getByRole('button', { name: 'Next page' });
      expect(await next.isEnabled(), 'the review is in the queue').toBe(true);
      await next.click();
      await first.page.getByRole('table').waitFor();
    }
    await expectAccessible(first.page, 'vet queue');
    await screenshot(first.page, 'vet-queue');
    await open.click();
    await first.page.getByRole('heading', { name: `Review of ${pet.name}` }).waitFor();
    const photos = first.page.getByRole('list', { name: 'Analysed photo' }).getByRole('img');
    await expect
      .poll(() => photos.evaluateAll((images) => images.map((i) => (i as { naturalWidth: number }).naturalWidth)))
      .toEqual([expect.any(Number)]);
    expect(await first.page.getByText('7 of 9 (overweight)').count()).toBe(1);
    const said = first.page.getByRole('figure', { name: "The model's reasoning" });
    expect(await said.locator('blockquote').textContent()).toBe(reasoning);
    expect(await said.locator('b').count()).toBe(0);
    await screenshot(first.page, 'vet-review');

    // A second vet opens the same review before the first decides.
    const second = await openConsole(browser);
    await signIn(second.page, otherVet.api_key);
    await second.page.goto(`${inject('baseUrl')}/console#/reviews/${requested.body.id}`);
    await second.page.getByRole('heading', { name: `Review of ${pet.name}` }).waitFor();

    await first.page.getByLabel('Body condition score (1 to 9)').selectOption('5');
    await first.page.getByLabel('Notes for the owner (optional)').fill('Ideal: ribs easily felt');
    await expectAccessible(first.page, 'review');
    await first.page.getByRole('button', { name: 'Complete review' }).click();
    await first.page.getByRole('status').filter({ hasText: 'Completed: score 5' }).waitFor();
    await screenshot(first.page, 'vet-review-completed');

    await second.page.getByLabel('Reason for the owner').fill('Photos too dark');
    await second.page.getByRole('button', { name: 'Reject review' }).click();
    const refused = second.page.getByRole('alert');
    await refused.waitFor();
    expect(await refused.textContent()).toContain('409');
    expect(await refused.textContent()).toContain('review_not_pending');
    await second.page.getByText('already decided, probably by another vet').waitFor();
    await expectAccessible(second.page, 'review decided elsewhere');
    await screenshot(second.page, 'vet-review-409');

    const ownerView = await openConsole(browser);
    await signIn(ownerView.page, owner.api_key);
    await ownerView.page.goto(`${inject('baseUrl')}/console#/pets/${pet.id}`);
    const row = ownerView.page
      .getByRole('table', { name: /Body condition/ })
      .getByRole('row')
      .nth(1);
    await row.waitFor();
    expect(await row.textContent()).toContain('completed');
    expect(await row.textContent()).toContain('5 (ideal)');
    expect(await row.textContent()).toContain('Ideal: ribs easily felt');
    // The owner reads the model's reasoning too, as text.
    await row.getByText('Why').click();
    expect(await row.locator('blockquote').textContent()).toBe(reasoning);
    // The health record: the analysis and the vet's decision, newest first, with what each was made from.
    const record = ownerView.page.getByRole('table', { name: /records/ });
    const kept = await record.getByRole('row').allTextContents();
    expect(kept.slice(1).map((text) => text.replace(/^.*?(Vet review|Body condition score)/, '$1'))).toEqual([
      'Vet reviewcompleted: 51 analysis, 1 photoa vet (completed)',
      expect.stringMatching(/^Body condition scorescore 71 photo/),
    ]);
    await expectAccessible(ownerView.page, 'pet with health record');
    await screenshot(ownerView.page, 'owner-sees-review');

    for (const view of [first, second, ownerView]) {
      expect(view.problems).toEqual([]);
      await view.page.close();
    }
  }, 120_000);

  it('an administrator approves a public request with reference pickers and the photo joins /images/search', async () => {
    const owner = await createAccount();
    const imageId = await anApprovedUpload(owner.api_key, Math.floor(Math.random() * 200));
    const message = `Korat in the sun ${imageId}`;
    const put = await api('POST', `/images/${imageId}/public-requests`, {
      key: owner.api_key,
      body: { request_message: message, author: 'Ana Ruiz', licence: 'CC-BY-4.0' },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(201);

    const { page, urls, problems } = await openConsole(browser);
    await signIn(page, adminKey());
    await page.getByRole('link', { name: 'Administration' }).click();
    const card = page.getByRole('listitem', { name: message });
    await page.getByRole('heading', { name: 'Public-image requests' }).waitFor();
    while ((await card.count()) === 0) {
      const next = page.getByRole('button', { name: 'Next page' });
      await page.getByText(/pending, oldest first/).waitFor();
      if ((await card.count()) > 0) break;
      expect(await next.isEnabled(), 'the request is in the queue').toBe(true);
      await next.click();
    }
    expect(await card.textContent()).toContain('Ana Ruiz');
    expect(await card.textContent()).toContain('CC-BY-4.0');
    await expect
      .poll(() => card.getByRole('img').evaluate((i) => (i as { naturalWidth: number }).naturalWidth))
      .toBe(80);

    await card.getByLabel('Species').selectOption('cat');
    await card.getByLabel('Find breeds').fill('Korat');
    await card.getByRole('checkbox', { name: 'Korat', exact: true }).check();
    await card.getByRole('checkbox', { name: 'Blue (colour)', exact: true }).check();
    await expectAccessible(page, 'administration');
    await screenshot(page, 'admin-approve');
    await card.getByRole('button', { name: 'Approve and publish' }).click();
    await card.getByRole('status').filter({ hasText: 'Approved and published' }).waitFor();

    const search = await api('GET', '/images/search?breed_ids=korat&order=DESC&limit=100&include_colours=true', {
      key: owner.api_key,
    });
    expect(search.status).toBe(200);
    const published = (search.body as { id: string; colours?: { id: string }[] }[]).find((i) => i.id === imageId);
    expect(published, 'the approved photo is searchable').toBeDefined();

    await page.getByLabel('Account id').fill(owner.id);
    await page.getByRole('button', { name: 'Look up' }).click();
    const overview = page.getByRole('definition').filter({ hasText: 'Integration test' });
    await overview.waitFor();
    await expectAccessible(page, 'account lookup');
    expect(urls.filter((url) => url.includes(adminKey()))).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);
});
