// The document's prose that belongs to no single route: the introduction and the route groups (one tag per area
// folder of functions/). Route summaries and descriptions live in each handler's contract.

export const API_DESCRIPTION = `Dog and cat reference content (breeds, facts, health tips, colours, breed legislation, images), user data
(votes, favourites, uploads, pets with photos, videos and portraits), photo analysis, calculators, accounts and
signed webhook deliveries.

**Authentication.** Send the account's API key in \`x-api-key\`. Votes and favourites also take a bearer token from
\`POST /auth/token\` (\`Authorization: Bearer …\`). Administration routes need the key of an admin account. A missing or
invalid credential answers 403, an inactive account 401.

**Errors.** Every 4xx and 5xx has the same body: \`{statusCode, timestamp, path, message, error, code?}\` (schema
\`Error\`). \`message\` is a list for validation errors, one message per problem; branch on \`code\`, never on the
message.

**Lists.** Page-style lists take a zero-based \`page\` and \`limit\` and send the total in \`Pagination-Count\`;
offset-style lists (facts, health tips) take \`offset\` and \`limit\`. Unknown query parameters are refused by name.

**Limits.** JSON bodies up to 64 KiB, photos up to 4 MB in one request (50 MB through the two-step upload), a pet
takes 100 new photos per 24 hours (429 \`pet_upload_rate_exceeded\` with \`Retry-After\`).

**Webhooks.** Every committed vote, favourite and upload step becomes an event, POSTed to the account's subscribed
endpoints with \`X-Webhook-Signature\` (see *Webhooks* below for each event's body).

This document is generated from the service's route table and validation schemas (\`npm run openapi\`).`;

export const TAGS: Record<string, { name: string; description: string }> = {
  system: { name: 'System', description: 'Health.' },
  docs: { name: 'API reference', description: 'This document, the browsable reference page and the web console.' },
  auth: { name: 'Authentication', description: 'Bearer tokens for API keys.' },
  accounts: { name: 'Accounts', description: 'The caller’s flags and quota; account administration.' },
  facts: { name: 'Facts', description: 'Sourced facts about breeds and species (offset lists).' },
  'health-tips': { name: 'Health tips', description: 'Sourced health tips (offset lists).' },
  categories: { name: 'Categories', description: 'Image categories.' },
  breeds: { name: 'Breeds', description: 'Dog and cat breeds, groups and colours.' },
  bans: { name: 'Breed legislation', description: 'Breed bans and restrictions by country and breed.' },
  images: { name: 'Images', description: 'The image catalogue and the caller’s uploads.' },
  pets: { name: 'Pets', description: 'Pet profiles with photos, videos and portraits.' },
  analysis: { name: 'Photo analysis', description: 'Analyses of a pet’s photos on a vision model.' },
  reviews: { name: 'Vet reviews', description: 'Vets check body condition results: the owner asks, a vet decides.' },
  calculators: { name: 'Calculators', description: 'Energy requirement.' },
  votes: { name: 'Votes', description: 'Votes on images.' },
  favourites: { name: 'Favourites', description: 'Favourite images.' },
  webhooks: { name: 'Webhooks', description: 'Endpoints, deliveries and test events.' },
};
