// Example webhook receiver for the pet API, in plain Node (18+) with no dependencies.
//
//   WEBHOOK_SECRET=whsec_... PORT=8080 node examples/receiver/server.mjs
//
// What it shows:
// - verify the signature over the RAW body bytes: parsing and re-serialising JSON breaks it. Both schemes the API
//   signs with are shown: the spec's X-Webhook-Signature (Stripe-style, keyed with the whole secret string) and the
//   Standard Webhooks headers (keyed with the bytes after whsec_), checked here when the delivery carries them
//   (endpoints whose secret was created before 2026-11-28 send them only after a rotation);
// - compare signatures in constant time (timingSafeEqual);
// - refuse deliveries whose timestamp is more than 5 minutes away from now (replay guard);
// - deduplicate: the same event can arrive twice, so remember X-Webhook-Id (or, when absent,
//   the resource id) for longer than those 5 minutes;
// - answer 204 at once and do the real work afterwards: replies slower than 5 s count as failures.
//
// It listens on 127.0.0.1 only; put it behind an HTTPS reverse proxy or tunnel to receive real
// deliveries (endpoints must be https). Libraries verify the same deliveries:
// stripe.webhooks.constructEvent(rawBody, req.headers['x-webhook-signature'], secret), and
// new Webhook(secret).verify(rawBody, req.headers) from the standardwebhooks package.

import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';

const SECRET = process.env.WEBHOOK_SECRET;
const PORT = Number(process.env.PORT ?? 8080);
const TOLERANCE_SECONDS = 5 * 60;
const DEDUPE_TTL_MS = 2 * TOLERANCE_SECONDS * 1000;
const MAX_BODY_BYTES = 1024 * 1024;

if (!SECRET) {
  console.error('Set WEBHOOK_SECRET to the signing_secret returned when the endpoint was created.');
  process.exit(1);
}

const isFresh = (timestamp, nowSeconds) => Math.abs(nowSeconds - Number(timestamp)) <= TOLERANCE_SECONDS;

/** X-Webhook-Signature: returns undefined when valid, otherwise the reason for refusing. */
function verify(rawBody, header, secret, nowSeconds = Date.now() / 1000) {
  if (typeof header !== 'string') return 'missing signature header';
  let timestamp;
  const candidates = [];
  for (const entry of header.split(',')) {
    const [key, value] = entry.trim().split('=', 2);
    if (key === 't') timestamp = value;
    if (key === 'v1' && /^[0-9a-f]{64}$/.test(value)) candidates.push(Buffer.from(value, 'hex'));
  }
  if (!/^\d+$/.test(timestamp ?? '') || candidates.length === 0) return 'malformed signature header';
  // The key is the whole secret string, whsec_ prefix included.
  const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest();
  if (!candidates.some((candidate) => timingSafeEqual(candidate, expected))) return 'signature mismatch';
  if (!isFresh(timestamp, nowSeconds)) return 'timestamp outside tolerance';
  return undefined;
}

/** The Standard Webhooks headers: returns undefined when valid, otherwise the reason for refusing. */
function verifyStandard(rawBody, headers, secret, nowSeconds = Date.now() / 1000) {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = String(headers['webhook-signature'] ?? '').split(' ');
  if (!id || !/^\d+$/.test(timestamp ?? '')) return 'malformed Standard Webhooks headers';
  // The key is the bytes the part after whsec_ encodes in base64; the signatures are base64 too.
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.`).update(rawBody).digest();
  const matches = signatures
    .map((entry) => entry.split(','))
    .filter(([version, value]) => version === 'v1' && /^[A-Za-z0-9+/]{43}=$/.test(value ?? ''))
    .some(([, value]) => timingSafeEqual(Buffer.from(value, 'base64'), expected));
  if (!matches) return 'Standard Webhooks signature mismatch';
  if (!isFresh(timestamp, nowSeconds)) return 'timestamp outside tolerance';
  return undefined;
}

// In memory for the example; use a shared store (Redis, DynamoDB with TTL) when running several instances.
const seen = new Map(); // dedupe key -> expiry (ms)

function isDuplicate(key, now = Date.now()) {
  for (const [seenKey, expiresAt] of seen) if (expiresAt <= now) seen.delete(seenKey);
  if (key === undefined) return false;
  if (seen.has(key)) return true;
  seen.set(key, now + DEDUPE_TTL_MS);
  return false;
}

function dedupeKey(webhookId, event) {
  if (typeof webhookId === 'string' && webhookId !== '') return webhookId;
  if (event?.id === undefined) return undefined;
  return `${event._metadata?.event_type}:${event.id}`;
}

function handleEvent(event) {
  // Real work (database writes, calls to other services) goes here, after the reply was sent.
  console.log(`received ${event?._metadata?.event_type ?? 'event'}`, JSON.stringify(event));
}

function readRawBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) reject(new Error('body too large'));
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

const server = createServer(async (req, res) => {
  if (req.method !== 'POST') {
    res.writeHead(405, { allow: 'POST' }).end();
    return;
  }
  let rawBody;
  try {
    rawBody = await readRawBody(req);
  } catch {
    res.writeHead(413, { connection: 'close' }).end();
    return;
  }

  // A receiver needs one scheme; this one checks both to show each (the Standard Webhooks one when it is sent).
  const failure =
    verify(rawBody, req.headers['x-webhook-signature'], SECRET) ??
    (req.headers['webhook-signature'] === undefined ? undefined : verifyStandard(rawBody, req.headers, SECRET));
  if (failure) {
    console.warn(`refused delivery: ${failure}`);
    res.writeHead(400, { 'content-type': 'text/plain' }).end(failure);
    return;
  }

  let event;
  try {
    event = JSON.parse(rawBody.toString('utf8'));
  } catch {
    res.writeHead(400, { 'content-type': 'text/plain' }).end('body is not JSON');
    return;
  }

  // A duplicate is acknowledged like any other delivery, otherwise it would be retried.
  const duplicate = isDuplicate(dedupeKey(req.headers['x-webhook-id'], event));
  res.writeHead(204).end();
  if (duplicate) console.log('duplicate delivery ignored');
  else setImmediate(() => handleEvent(event));
});

server.listen(PORT, '127.0.0.1', () => {
  console.log(`webhook receiver listening on http://127.0.0.1:${server.address().port}`);
});
