import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import type { Config } from '../config.ts';
import { traced } from '../observability.ts';

/** The mail's recipient: an account with an address (accounts without one are not mailed). */
export interface MailRecipient {
  name: string;
  email: string;
}

export interface DisabledEndpoint {
  id: string;
  url: string;
}

/** Tells an account owner that an endpoint was disabled; called once per disable. */
export type NotifyOwner = (owner: MailRecipient, webhook: DisabledEndpoint, reason: string) => Promise<void>;

interface OwnerMessage {
  subject: string;
  text: string;
}

/** Says what happened and the only remedy, since a disabled endpoint cannot be re-enabled. */
export function disabledEndpointMessage(owner: MailRecipient, webhook: DisabledEndpoint, reason: string): OwnerMessage {
  return {
    subject: 'Your webhook endpoint was disabled',
    text: [
      `Hello ${owner.name},`,
      '',
      `Your webhook endpoint ${webhook.url} (id ${webhook.id}) was disabled: ${reason}.`,
      '',
      'A disabled endpoint receives no more events and cannot be re-enabled. It still counts toward your limit of five',
      `endpoints. To receive events again, delete it (DELETE /v1/webhooks/${webhook.id}) and register the URL again`,
      '(POST /v1/webhooks) once the receiver answers with a 2xx status within five seconds.',
      '',
      `The recent attempts are listed by GET /v1/webhooks/${webhook.id}/deliveries.`,
    ].join('\n'),
  };
}

export function sesOwnerMailer(client: SESv2Client, from: string): NotifyOwner {
  return async (owner, webhook, reason) => {
    const message = disabledEndpointMessage(owner, webhook, reason);
    await client.send(
      new SendEmailCommand({
        FromEmailAddress: from,
        Destination: { ToAddresses: [owner.email] },
        Content: {
          Simple: {
            Subject: { Data: message.subject, Charset: 'UTF-8' },
            Body: { Text: { Data: message.text, Charset: 'UTF-8' } },
          },
        },
      }),
    );
  };
}

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

let ses: SESv2Client | undefined;

/** The local outbox when a directory is configured (local mode), Amazon SES otherwise. */
export function ownerMailer(config: Pick<Config, 'ownerMailOutboxDir' | 'ownerMailFrom'>): NotifyOwner {
  if (config.ownerMailOutboxDir) return outboxOwnerMailer(config.ownerMailOutboxDir, config.ownerMailFrom);
  ses ??= traced(new SESv2Client({}));
  return sesOwnerMailer(ses, config.ownerMailFrom);
}
