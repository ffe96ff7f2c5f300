import { EVENT_CATALOGUE, EVENT_NAMES } from '../../events/catalogue.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';

export const handler = httpRoute('webhooks.topics', {}, async () =>
  EVENT_NAMES.map((name) => ({ name, description: EVENT_CATALOGUE[name].description })),
);
