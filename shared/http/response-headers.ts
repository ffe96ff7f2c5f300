// Headers success responses carry besides content-type, described once: routes name the ones they send in their
// contract (`headers`), and the OpenAPI document takes the descriptions and schemas from here.

export const RESPONSE_HEADERS = {
  'pagination-count': {
    name: 'Pagination-Count',
    description: 'Total number of items matching the query, across all pages.',
    schema: { type: 'integer', minimum: 0 },
  },
  'next-cursor': {
    name: 'Next-Cursor',
    description: 'Where the next page starts: send it back as `cursor`. Absent on the last page.',
    schema: { type: 'string' },
    optional: true,
  },
  'content-language': {
    name: 'Content-Language',
    description: 'Language of the translated text fields (`lang`); `en` when none was asked for or none exists.',
    schema: { type: 'string', examples: ['en', 'de'] },
  },
  etag: {
    name: 'ETag',
    description:
      'A tag of this version of the body; sent back in `If-None-Match`, it gets `304 Not Modified` (no body) while the body is unchanged.',
    schema: { type: 'string' },
  },
  'cache-control': {
    name: 'Cache-Control',
    description: 'How long clients and CDNs may keep the response.',
    schema: { type: 'string' },
  },
} as const;

export type ResponseHeaderName = keyof typeof RESPONSE_HEADERS;
