// Amazon SES: one plain-text mail per disable, from the stage's verified sender.
import { SendEmailCommand, type SESv2Client } from '@aws-sdk/client-sesv2';
import type { NotifyOwner } from '../../ports/owner-mail.ts';
import { disabledEndpointMessage } from './message.ts';

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
