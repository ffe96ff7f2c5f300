// For tests: keeps every mail it is asked to send.
import type { DisabledEndpoint, MailRecipient, NotifyOwner } from '../../ports/owner-mail.ts';

export interface SentMail {
  owner: MailRecipient;
  webhook: DisabledEndpoint;
  reason: string;
}

export interface FakeOwnerMailer {
  notify: NotifyOwner;
  sent: SentMail[];
}

export function fakeOwnerMailer(): FakeOwnerMailer {
  const sent: SentMail[] = [];
  return {
    sent,
    notify: async (owner, webhook, reason) => {
      sent.push({ owner, webhook, reason });
    },
  };
}
