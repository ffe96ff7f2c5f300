import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { outboxOwnerMailer } from '../../../shared/adapters/owner-mail/local.ts';
import { ownerMailerFor } from '../../../shared/adapters/owner-mail/index.ts';
import { sesOwnerMailer } from '../../../shared/adapters/owner-mail/aws.ts';

const owner = { name: 'Owner', email: 'owner@example.com' };
const webhook = { id: 'wh-1', url: 'https://hooks.example.com/pets' };
const REASON = '10 delivery attempts failed in a row (last: HTTP 500)';
const SENT_AT = new Date('2026-11-22T10:00:00.000Z');

describe('the local outbox', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'outbox-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const writtenMail = async () => {
    const [file] = await readdir(dir);
    return { file: file!, text: await readFile(join(dir, file!), 'utf8') };
  };

  it('writes one RFC 5322 message with CRLF line ends, saying why and what to do', async () => {
    await outboxOwnerMailer(dir, 'Pet API <no-reply@pet-api.local>', () => SENT_AT)(owner, webhook, REASON);

    const { file, text } = await writtenMail();
    expect(file).toMatch(/\.eml$/);
    const headerEnd = text.indexOf('\r\n\r\n');
    const [head, body] = [text.slice(0, headerEnd), text.slice(headerEnd + 4)];
    expect(head.split('\r\n')).toEqual([
      'From: Pet API <no-reply@pet-api.local>',
      'To: owner@example.com',
      'Subject: Your webhook endpoint was disabled',
      'Date: Sun, 22 Nov 2026 10:00:00 +0000',
      expect.stringMatching(/^Message-ID: <[0-9a-f-]{36}@pet-api\.local>$/),
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=utf-8',
      'Content-Transfer-Encoding: 8bit',
    ]);
    expect(body).toContain(`Your webhook endpoint https://hooks.example.com/pets (id wh-1) was disabled: ${REASON}.`);
    expect(body).toContain('DELETE /v1/webhooks/wh-1');
    expect(text.replaceAll('\r\n', '')).not.toContain('\n');
  });

  it('cannot be made to add headers through a line break in the address', async () => {
    await outboxOwnerMailer(dir, 'no-reply@pet-api.local', () => SENT_AT)(
      { ...owner, email: 'owner@example.com\r\nBcc: someone@evil.example' },
      webhook,
      REASON,
    );

    const { text } = await writtenMail();
    expect(text.split('\r\n').filter((line) => line.startsWith('Bcc:'))).toEqual([]);
  });
});

describe('Amazon SES', () => {
  const ses = mockClient(SESv2Client);
  beforeEach(() => {
    ses.reset();
    ses.on(SendEmailCommand).resolves({ MessageId: 'ses-1' });
  });

  it('sends a plain-text mail from the configured sender to the owner', async () => {
    await sesOwnerMailer(new SESv2Client({ region: 'us-east-1' }), 'no-reply@pets.example')(owner, webhook, REASON);

    const input = ses.commandCalls(SendEmailCommand)[0]!.args[0].input;
    expect(input).toMatchObject({
      FromEmailAddress: 'no-reply@pets.example',
      Destination: { ToAddresses: ['owner@example.com'] },
      Content: { Simple: { Subject: { Data: 'Your webhook endpoint was disabled' } } },
    });
    expect(input.Content!.Simple!.Body!.Text!.Data).toContain(REASON);
  });

  it('is chosen when no outbox directory is configured', async () => {
    await ownerMailerFor({ ownerMailOutboxDir: undefined, ownerMailFrom: 'no-reply@pets.example' })(
      owner,
      webhook,
      REASON,
    );

    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(1);
  });
});
