/**
 * Delivery bodies. The spec sends the resource plus `_metadata` as raw JSON, except to chat-service
 * incoming webhooks, which only accept their own message format and get a formatted message instead.
 */

export interface WebhookEvent {
  /** Event name from the spec, e.g. `vote.created`. */
  eventType: string;
  /** When the event happened (ISO 8601); copied to `_metadata.timestamp` unchanged. */
  timestamp: string;
  resource: Readonly<Record<string, unknown>>;
  /** Only set when known: the spec adds `_metadata.country_code` only then. */
  countryCode?: string | undefined;
}

export type ChatService = 'slack' | 'discord' | 'teams';

interface ChatUrlRule {
  service: ChatService;
  host: string;
  /** `domain` also matches subdomains, on a label boundary; `exact` matches the host alone. */
  match: 'exact' | 'domain';
  path: RegExp;
}

const CHAT_URL_RULES: readonly ChatUrlRule[] = [
  { service: 'slack', host: 'hooks.slack.com', match: 'exact', path: /^\/services\// },
  // ptb. and canary. are Discord's own client channels; /api/v10/webhooks/... is the versioned form.
  { service: 'discord', host: 'discord.com', match: 'domain', path: /^\/api\/(?:v\d+\/)?webhooks\// },
  { service: 'discord', host: 'discordapp.com', match: 'domain', path: /^\/api\/(?:v\d+\/)?webhooks\// },
  // Legacy Office 365 connector webhooks live on <tenant>.webhook.office.com.
  { service: 'teams', host: 'webhook.office.com', match: 'domain', path: /^\/webhookb2\// },
  // Teams "Workflows" (Power Automate) triggers replace the connectors; both take Adaptive Cards.
  { service: 'teams', host: 'logic.azure.com', match: 'domain', path: /\/workflows\// },
  { service: 'teams', host: 'powerplatform.com', match: 'domain', path: /\/workflows\// },
];

/** Matches on the parsed host, never on the URL text, so look-alikes such as `hooks.slack.com.evil.example` fail. */
export function detectChatService(url: string): ChatService | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'https:') return undefined;
  // A fully qualified name with a trailing dot reaches the same host.
  const host = parsed.hostname.replace(/\.$/, '');
  const rule = CHAT_URL_RULES.find((candidate) => hostMatches(host, candidate) && candidate.path.test(parsed.pathname));
  return rule?.service;
}

function hostMatches(host: string, rule: ChatUrlRule): boolean {
  if (host === rule.host) return true;
  return rule.match === 'domain' && host.endsWith(`.${rule.host}`);
}

/** The exact body to sign and send to `url`. */
export function formatDeliveryBody(url: string, event: WebhookEvent): string {
  const service = detectChatService(url);
  return JSON.stringify(service === undefined ? eventPayload(event) : formatChatMessage(service, event));
}

function eventPayload(event: WebhookEvent): Record<string, unknown> {
  const metadata: Record<string, string> = { event_type: event.eventType, timestamp: event.timestamp };
  if (event.countryCode !== undefined) metadata.country_code = event.countryCode;
  // `_metadata` goes last so that a resource field of the same name cannot shadow it.
  return { ...event.resource, _metadata: metadata };
}

export interface SlackMessage {
  text: string;
  blocks: Array<Record<string, unknown>>;
}

export interface DiscordMessage {
  content: string;
  embeds: Array<{ title: string; description: string; timestamp?: string; footer?: { text: string } }>;
  allowed_mentions: { parse: string[] };
}

export interface TeamsMessage {
  type: 'message';
  attachments: Array<{ contentType: string; contentUrl: null; content: Record<string, unknown> }>;
}

function formatChatMessage(service: ChatService, event: WebhookEvent): SlackMessage | DiscordMessage | TeamsMessage {
  switch (service) {
    case 'slack':
      return formatSlackMessage(event);
    case 'discord':
      return formatDiscordMessage(event);
    case 'teams':
      return formatTeamsMessage(event);
  }
}

// Limits published by each service; exceeding any of them makes the whole message fail.
const SLACK_HEADER_MAX = 150;
const SLACK_SECTION_TEXT_MAX = 3000;
const DISCORD_CONTENT_MAX = 2000;
const DISCORD_TITLE_MAX = 256;
const DISCORD_DESCRIPTION_MAX = 4096;
// Keeps title + description + footer under Discord's 6,000-character total per embed.
const DISCORD_FOOTER_MAX = 64;
// Teams refuses messages over ~28 KB; 6,000 UTF-16 units stay below it even at 3 UTF-8 bytes each.
const TEAMS_JSON_MAX = 6000;

const EVENT_SUMMARIES: ReadonlyMap<string, string> = new Map([
  ['pet.bcs.review_requested', 'A body condition score has gone to a vet for review'],
  ['pet.bcs.reviewed', 'A vet completed or rejected a body condition score review'],
  ['image.uploaded', 'An image upload succeeded'],
  ['image.processed', 'An image finished validation'],
  ['image.labels_created', 'Labels were generated for an image'],
  ['vote.created', 'A vote was recorded'],
  ['favourite.created', 'A favourite was recorded'],
  ['pet.respiratory_rate.completed', 'A respiratory-rate measurement finished'],
  ['pet.respiratory_rate.alert', "A pet's respiratory rate broke its alert rule"],
  ['webhook.endpoint.disabled', 'A webhook endpoint of this account was disabled and receives no more events'],
  ['webhook.attempts.exhausted', 'An event could not be delivered to a webhook endpoint: all 3 attempts failed'],
]);

function summarise(event: WebhookEvent): string {
  return EVENT_SUMMARIES.get(event.eventType) ?? `Event ${event.eventType}`;
}

export function formatSlackMessage(event: WebhookEvent): SlackMessage {
  const summary = summarise(event);
  const details = [event.eventType, event.timestamp, event.countryCode].filter((part) => part !== undefined);
  return {
    // Shown in notifications and wherever blocks cannot be rendered.
    text: escapeSlack(`${summary} (${event.eventType})`),
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: truncate(summary, SLACK_HEADER_MAX) } },
      {
        type: 'section',
        text: { type: 'mrkdwn', text: codeBlock(escapeSlack(resourceJson(event)), SLACK_SECTION_TEXT_MAX) },
      },
      { type: 'context', elements: [{ type: 'mrkdwn', text: escapeSlack(details.join(' · ')) }] },
    ],
  };
}

export function formatDiscordMessage(event: WebhookEvent): DiscordMessage {
  const embed: DiscordMessage['embeds'][number] = {
    title: truncate(event.eventType, DISCORD_TITLE_MAX),
    description: codeBlock(resourceJson(event), DISCORD_DESCRIPTION_MAX),
  };
  const timestamp = toIsoTimestamp(event.timestamp);
  if (timestamp !== undefined) embed.timestamp = timestamp;
  if (event.countryCode !== undefined)
    embed.footer = { text: truncate(`Country: ${event.countryCode}`, DISCORD_FOOTER_MAX) };
  return {
    content: truncate(summarise(event), DISCORD_CONTENT_MAX),
    embeds: [embed],
    // Resource text such as "@everyone" must never ping a channel.
    allowed_mentions: { parse: [] },
  };
}

export function formatTeamsMessage(event: WebhookEvent): TeamsMessage {
  const facts = [
    { title: 'Event', value: event.eventType },
    { title: 'Time', value: event.timestamp },
    ...(event.countryCode === undefined ? [] : [{ title: 'Country', value: event.countryCode }]),
  ];
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body: [
            { type: 'TextBlock', text: summarise(event), weight: 'Bolder', size: 'Medium', wrap: true },
            { type: 'FactSet', facts },
            {
              type: 'TextBlock',
              text: truncate(resourceJson(event), TEAMS_JSON_MAX),
              fontType: 'Monospace',
              wrap: true,
            },
          ],
        },
      },
    ],
  };
}

/**
 * Backticks only occur inside JSON strings, so escaping them as \u0060 keeps the JSON equivalent
 * while making it impossible for resource text to close a Markdown code fence.
 */
function resourceJson(event: WebhookEvent): string {
  return JSON.stringify(event.resource, null, 2).replaceAll('`', '\\u0060');
}

function codeBlock(text: string, maxLength: number): string {
  const fence = '```';
  return `${fence}\n${truncate(text, maxLength - 2 * fence.length - 2)}\n${fence}`;
}

/** Slack reads &, < and > as control characters in every text field. */
function escapeSlack(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

function truncate(text: string, maxLength: number): string {
  if (text.length <= maxLength) return text;
  const cut = text.slice(0, maxLength - 1);
  // A lone high surrogate would make the message invalid UTF-8 for some services.
  return `${/[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut}…`;
}

function toIsoTimestamp(timestamp: string): string | undefined {
  const millis = Date.parse(timestamp);
  return Number.isNaN(millis) ? undefined : new Date(millis).toISOString();
}
