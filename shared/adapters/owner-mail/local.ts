import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { NotifyOwner } from '../../ports/owner-mail.ts';
import { disabledEndpointMessage } from './message.ts';

/** Local mode: each mail becomes an RFC 5322 `.eml` file that any mail client opens. */
export function outboxOwnerMailer(directory: string, from: string, now: () => Date = () => new Date()): NotifyOwner {
  return async (owner, webhook, reason) => {
    const message = disabledEndpointMessage(owner, webhook, reason);
    const sentAt = now();
    const headers = [
      `From: ${headerValue(from)}`,
      `To: ${headerValue(owner.email)}`,
      `Subject: ${headerValue(message.subject)}`,
      `Date: ${rfc5322Date(sentAt)}`,
      `Message-ID: <${randomUUID()}@pet-api.local>`,
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=utf-8',
      'Content-Transfer-Encoding: 8bit',
    ];
    await mkdir(directory, { recursive: true });
    const file = join(directory, `${sentAt.toISOString().replaceAll(':', '-')}-webhook-${webhook.id}.eml`);
    await writeFile(file, `${[...headers, '', ...message.text.split('\n')].join('\r\n')}\r\n`, 'utf8');
  };
}

/** A line break inside a header value would start a new header (header injection). */
function headerValue(value: string): string {
  return value.replace(/[\r\n]+/g, ' ');
}

/** `Sun, 22 Nov 2026 12:00:00 +0000`: toUTCString with the numeric zone RFC 5322 prefers over `GMT`. */
function rfc5322Date(date: Date): string {
  return date.toUTCString().replace(/GMT$/, '+0000');
}
