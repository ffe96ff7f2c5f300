import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, createAccount } from '../support/api-client.ts';
import { launchChromium } from '../support/browser.ts';

let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

describe('GET /v1/docs in a real browser (headless Chromium)', () => {
  it('loads from the API alone with no console error and lists every route group of the document', async () => {
    const baseUrl = inject('baseUrl');
    const { origin } = new URL(baseUrl);
    const page = await browser.newPage();
    const problems: string[] = [];
    const elsewhere: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('requestfailed', (request) => problems.push(`${request.url()} ${request.failure()?.errorText}`));
    page.on('request', (request) => {
      if (!request.url().startsWith(origin) && !request.url().startsWith('data:')) elsewhere.push(request.url());
    });

    page.setDefaultTimeout(20_000);
    await page.goto(`${baseUrl}/docs`);
    await page.locator('.opblock-tag').first().waitFor();

    const document = (await api('GET', '/openapi.json')).body;
    const groups = await page.locator('.opblock-tag').allInnerTexts();
    const shown = groups.map((text) => text.split('\n')[0]!.trim());
    expect(shown.sort()).toEqual(document.tags.map((t: { name: string }) => t.name).sort());
    // One entry per operation, and one per webhook (Swagger UI renders OpenAPI 3.1 webhooks the same way).
    const operations = Object.values(document.paths as Record<string, object>).flatMap((p) => Object.keys(p));
    expect(await page.locator('.opblock').count()).toBe(operations.length + Object.keys(document.webhooks).length);
    expect(problems).toEqual([]);
    expect(elsewhere, 'the page loads nothing from another origin (no CDN)').toEqual([]);

    mkdirSync(join('.local'), { recursive: true });
    await page.setViewportSize({ width: 1280, height: 1600 });
    await page.screenshot({ path: join('.local', 'api-reference.png') });
    await page.close();
  }, 90_000);

  it('sends an authorised "Try it out" request to the local service and shows its answer', async () => {
    const account = await createAccount();
    const page = await browser.newPage();
    await page.goto(`${inject('baseUrl')}/docs`);
    page.setDefaultTimeout(20_000);

    await page.getByRole('button', { name: 'Authorize' }).first().click();
    const apiKeyForm = page.locator('.auth-container').filter({ hasText: 'ApiKey' }).first();
    await apiKeyForm.locator('input').fill(account.api_key);
    await apiKeyForm.getByRole('button', { name: 'Apply credentials' }).click();
    await apiKeyForm.getByRole('button', { name: 'Close' }).click();

    const operation = page
      .locator('.opblock')
      .filter({ has: page.locator('.opblock-summary-path[data-path="/breeds/breed-groups"]') });
    await operation.locator('.opblock-summary').click();
    await operation.getByRole('button', { name: 'Try it out' }).click();
    const answered = page.waitForResponse((res) => res.url().includes('/breeds/breed-groups'));
    await operation.getByRole('button', { name: 'Execute' }).click();
    const response = await answered;

    expect(response.status()).toBe(200);
    expect(response.request().headers()['x-api-key']).toBe(account.api_key);
    await expect
      .poll(() => operation.locator('.live-responses-table .response .response-col_status').first().textContent())
      .toContain('200');
    expect(await operation.locator('.live-responses-table .microlight').first().textContent()).toContain('Hound');
    await page.close();
  }, 90_000);
});
