// Port: the e-mail that tells an account owner an endpoint was disabled. Adapters (shared/adapters/owner-mail/):
// Amazon SES deployed (aws.ts), .eml files in an outbox under npm start (local.ts), fake.ts for tests; index.ts picks
// one from the configuration.

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
