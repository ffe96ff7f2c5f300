// Picks the owner mailer the configuration names; composed by the webhook deliverer, the only function that bundles
// the SES SDK.
import { SESv2Client } from '@aws-sdk/client-sesv2';
import type { Config } from '../../config.ts';
import { traced } from '../../observability.ts';
import type { NotifyOwner } from '../../ports/owner-mail.ts';
import { sesOwnerMailer } from './aws.ts';
import { outboxOwnerMailer } from './local.ts';

let ses: SESv2Client | undefined;

/** The local outbox when a directory is configured (local mode), Amazon SES otherwise. */
export function ownerMailerFor(config: Pick<Config, 'ownerMailOutboxDir' | 'ownerMailFrom'>): NotifyOwner {
  if (config.ownerMailOutboxDir) return outboxOwnerMailer(config.ownerMailOutboxDir, config.ownerMailFrom);
  ses ??= traced(new SESv2Client({}));
  return sesOwnerMailer(ses, config.ownerMailFrom);
}
