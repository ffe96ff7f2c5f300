import { describe, expect, it } from 'vitest';
import {
  detectChatService,
  formatDeliveryBody,
  formatDiscordMessage,
  formatSlackMessage,
  formatTeamsMessage,
  type WebhookEvent,
} from '../../../shared/webhooks/chat-format.ts';

const voteEvent: WebhookEvent = {
  eventType: 'vote.created',
  timestamp: '2026-03-01T12:00:00.000Z',
  resource: { id: 42, image_id: 'abc', value: 1, sub_id: 'user-1' },
  countryCode: 'GB',
};

const SLACK_URL = 'https://hooks.slack.com/services/T000/B000/XXXX';
const DISCORD_URL = 'https://discord.com/api/webhooks/123456/token-abc';
const TEAMS_WORKFLOW_URL =
  'https://prod-12.westeurope.logic.azure.com:443/workflows/abc123/triggers/manual/paths/invoke?api-version=2016-06-01&sig=xyz';

function anEvent(overrides: Partial<WebhookEvent> = {}): WebhookEvent {
  return { ...voteEvent, ...overrides };
}

describe('detectChatService', () => {
  it.each([
    [SLACK_URL, 'slack'],
    [DISCORD_URL, 'discord'],
    ['https://discordapp.com/api/webhooks/123/abc', 'discord'],
    ['https://ptb.discord.com/api/webhooks/123/abc', 'discord'],
    ['https://discord.com/api/v10/webhooks/123/abc', 'discord'],
    ['https://contoso.webhook.office.com/webhookb2/abc@def/IncomingWebhook/123/456', 'teams'],
    [TEAMS_WORKFLOW_URL, 'teams'],
    [
      'https://default0a1b.2c.environment.api.powerplatform.com:443/powerautomate/automations/direct/workflows/abc/triggers/manual/paths/invoke',
      'teams',
    ],
    ['https://HOOKS.SLACK.COM/services/T000/B000/XXXX', 'slack'],
    ['https://hooks.slack.com./services/T000/B000/XXXX', 'slack'],
  ])('recognises %s as %s', (url, service) => {
    expect(detectChatService(url)).toBe(service);
  });

  it.each([
    ['a look-alike host with the real name as a prefix', 'https://hooks.slack.com.evil.example/services/T/B/X'],
    ['a look-alike host with the real name as a suffix', 'https://evilhooks.slack.com/services/T/B/X'],
    ['another Slack host', 'https://slack.com/services/T/B/X'],
    ['the real name in the path', 'https://evil.example/hooks.slack.com/services/T/B/X'],
    ['the real name as user info', 'https://hooks.slack.com@evil.example/services/T/B/X'],
    ['the real name in the query', 'https://evil.example/?u=https://hooks.slack.com/services/T/B/X'],
    ['a Discord look-alike', 'https://discord.com.evil.example/api/webhooks/1/a'],
    ['a Discord name glued to another label', 'https://notdiscord.com/api/webhooks/1/a'],
    ['a Teams look-alike without the label boundary', 'https://evil-webhook.office.com/webhookb2/abc'],
    ['a Teams look-alike with the real name as a prefix', 'https://x.webhook.office.com.evil.example/webhookb2/abc'],
    ['a Logic Apps look-alike', 'https://prod-1.logic.azure.com.evil.example/workflows/abc'],
    ['a Slack URL outside /services/', 'https://hooks.slack.com/other/T/B/X'],
    ['a Discord URL outside the webhook API', 'https://discord.com/channels/1/2'],
    ['plain http to a chat host', 'http://hooks.slack.com/services/T/B/X'],
    ['an ordinary receiver', 'https://example.com/webhooks'],
    ['text that is not a URL', 'hooks.slack.com/services/T/B/X'],
  ])('does not treat %s as a chat service', (_description, url) => {
    expect(detectChatService(url)).toBeUndefined();
  });
});

describe('formatDeliveryBody for ordinary receivers', () => {
  it('sends the resource with _metadata added', () => {
    expect(JSON.parse(formatDeliveryBody('https://example.com/hook', voteEvent))).toEqual({
      id: 42,
      image_id: 'abc',
      value: 1,
      sub_id: 'user-1',
      _metadata: { event_type: 'vote.created', timestamp: '2026-03-01T12:00:00.000Z', country_code: 'GB' },
    });
  });

  it('leaves country_code out when the country is not known', () => {
    const body = JSON.parse(formatDeliveryBody('https://example.com/hook', anEvent({ countryCode: undefined })));
    expect(body._metadata).toEqual({ event_type: 'vote.created', timestamp: '2026-03-01T12:00:00.000Z' });
    expect(body._metadata).not.toHaveProperty('country_code');
  });

  it('does not let a resource field named _metadata replace the metadata', () => {
    const body = JSON.parse(
      formatDeliveryBody('https://example.com/hook', anEvent({ resource: { _metadata: 'spoofed' } })),
    );
    expect(body._metadata.event_type).toBe('vote.created');
  });

  it('returns compact JSON, the exact bytes to sign and send', () => {
    expect(formatDeliveryBody('https://example.com/hook', anEvent({ resource: { id: 1 } }))).toBe(
      '{"id":1,"_metadata":{"event_type":"vote.created","timestamp":"2026-03-01T12:00:00.000Z","country_code":"GB"}}',
    );
  });

  it('sends raw JSON to a look-alike chat host', () => {
    const body = JSON.parse(formatDeliveryBody('https://hooks.slack.com.evil.example/services/T/B/X', voteEvent));
    expect(body).toHaveProperty('_metadata');
    expect(body).not.toHaveProperty('blocks');
  });
});

describe('formatDeliveryBody for chat services', () => {
  it('sends Slack a message with text and blocks', () => {
    const body = JSON.parse(formatDeliveryBody(SLACK_URL, voteEvent));
    expect(body).toEqual(formatSlackMessage(voteEvent));
    expect(body).not.toHaveProperty('_metadata');
  });

  it('sends Discord a message with content and an embed', () => {
    expect(JSON.parse(formatDeliveryBody(DISCORD_URL, voteEvent))).toEqual(formatDiscordMessage(voteEvent));
  });

  it('sends Teams an Adaptive Card message', () => {
    expect(JSON.parse(formatDeliveryBody(TEAMS_WORKFLOW_URL, voteEvent))).toEqual(formatTeamsMessage(voteEvent));
  });
});

describe('Slack message', () => {
  it('summarises the event in the notification text and header', () => {
    const message = formatSlackMessage(voteEvent);
    expect(message.text).toBe('A vote was recorded (vote.created)');
    expect(message.blocks[0]).toEqual({ type: 'header', text: { type: 'plain_text', text: 'A vote was recorded' } });
  });

  it('says what an operational event means', () => {
    const disabled = { ...voteEvent, eventType: 'webhook.endpoint.disabled', resource: { webhook_id: 'wh-1' } };
    expect(formatSlackMessage(disabled).text).toBe(
      'A webhook endpoint of this account was disabled and receives no more events (webhook.endpoint.disabled)',
    );
    const exhausted = { ...voteEvent, eventType: 'webhook.attempts.exhausted', resource: { webhook_id: 'wh-1' } };
    expect(formatSlackMessage(exhausted).text).toBe(
      'An event could not be delivered to a webhook endpoint: all 3 attempts failed (webhook.attempts.exhausted)',
    );
  });

  it('shows the resource as a JSON code block and the details as context', () => {
    const [, section, context] = formatSlackMessage(voteEvent).blocks;
    expect(section).toEqual({
      type: 'section',
      text: { type: 'mrkdwn', text: `\`\`\`\n${JSON.stringify(voteEvent.resource, null, 2)}\n\`\`\`` },
    });
    expect(context).toEqual({
      type: 'context',
      elements: [{ type: 'mrkdwn', text: 'vote.created · 2026-03-01T12:00:00.000Z · GB' }],
    });
  });

  it('escapes &, < and > so resource text cannot inject links or mentions', () => {
    const message = formatSlackMessage(anEvent({ resource: { note: '<!channel> & <https://evil.example|click>' } }));
    const section = JSON.stringify(message.blocks[1]);
    expect(section).toContain('&lt;!channel&gt; &amp; &lt;https://evil.example|click&gt;');
    expect(section).not.toContain('<!channel>');
  });

  it('names an unknown event after its type', () => {
    expect(formatSlackMessage(anEvent({ eventType: 'pet.something_new' })).text).toBe(
      'Event pet.something_new (pet.something_new)',
    );
  });

  it('keeps the section within 3,000 characters for a large resource', () => {
    const message = formatSlackMessage(anEvent({ resource: { blob: 'x'.repeat(10_000) } }));
    const section = message.blocks[1] as { text: { text: string } };
    expect(section.text.text.length).toBeLessThanOrEqual(3000);
    expect(section.text.text.endsWith('…\n```')).toBe(true);
  });
});

describe('Discord message', () => {
  it('puts the summary in content and the resource in an embed', () => {
    expect(formatDiscordMessage(voteEvent)).toEqual({
      content: 'A vote was recorded',
      embeds: [
        {
          title: 'vote.created',
          description: `\`\`\`\n${JSON.stringify(voteEvent.resource, null, 2)}\n\`\`\``,
          timestamp: '2026-03-01T12:00:00.000Z',
          footer: { text: 'Country: GB' },
        },
      ],
      allowed_mentions: { parse: [] },
    });
  });

  it('omits the footer without a country and the timestamp when it is not a date', () => {
    const [embed] = formatDiscordMessage(anEvent({ countryCode: undefined, timestamp: 'not a date' })).embeds;
    expect(embed).not.toHaveProperty('footer');
    expect(embed).not.toHaveProperty('timestamp');
  });

  it('respects the description, title and total embed limits for a large event', () => {
    const message = formatDiscordMessage(
      anEvent({
        eventType: `x.${'y'.repeat(500)}`,
        resource: { blob: 'x'.repeat(10_000) },
        countryCode: 'Z'.repeat(100),
      }),
    );
    const [embed] = message.embeds;
    if (embed === undefined) throw new Error('no embed');
    expect(embed.description.length).toBeLessThanOrEqual(4096);
    expect(embed.title.length).toBeLessThanOrEqual(256);
    expect(embed.title.length + embed.description.length + (embed.footer?.text.length ?? 0)).toBeLessThanOrEqual(6000);
    expect(message.content.length).toBeLessThanOrEqual(2000);
  });

  it('does not cut an emoji in half when truncating', () => {
    const [embed] = formatDiscordMessage(anEvent({ resource: { pet: '🐶'.repeat(5000) } })).embeds;
    expect(embed?.description).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });

  it('escapes backticks so resource text cannot close the code block', () => {
    const [embed] = formatDiscordMessage(anEvent({ resource: { note: '```\n@everyone' } })).embeds;
    const inner = embed?.description.slice(4, -4) ?? '';
    expect(inner).not.toContain('`');
    expect(JSON.parse(inner)).toEqual({ note: '```\n@everyone' });
  });
});

describe('Teams message', () => {
  it('wraps an Adaptive Card in a message attachment', () => {
    const message = formatTeamsMessage(voteEvent);
    expect(message.type).toBe('message');
    expect(message.attachments).toHaveLength(1);
    expect(message.attachments[0]).toMatchObject({
      contentType: 'application/vnd.microsoft.card.adaptive',
      contentUrl: null,
      content: { type: 'AdaptiveCard', version: '1.4' },
    });
  });

  it('lists the event, time and country as facts and shows the resource', () => {
    const body = formatTeamsMessage(voteEvent).attachments[0]?.content.body;
    expect(body).toEqual([
      { type: 'TextBlock', text: 'A vote was recorded', weight: 'Bolder', size: 'Medium', wrap: true },
      {
        type: 'FactSet',
        facts: [
          { title: 'Event', value: 'vote.created' },
          { title: 'Time', value: '2026-03-01T12:00:00.000Z' },
          { title: 'Country', value: 'GB' },
        ],
      },
      { type: 'TextBlock', text: JSON.stringify(voteEvent.resource, null, 2), fontType: 'Monospace', wrap: true },
    ]);
  });

  it('stays well under the 28 KB message limit for a large multi-byte resource', () => {
    const body = formatDeliveryBody(TEAMS_WORKFLOW_URL, anEvent({ resource: { note: '€'.repeat(50_000) } }));
    expect(Buffer.byteLength(body)).toBeLessThan(28 * 1024);
  });
});
