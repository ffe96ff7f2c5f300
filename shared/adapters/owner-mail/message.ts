// What the owner reads, whichever adapter sends it.
import type { DisabledEndpoint, MailRecipient } from '../../ports/owner-mail.ts';

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
