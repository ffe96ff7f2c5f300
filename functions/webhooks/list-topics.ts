import { EVENT_CATALOGUE, EVENT_NAMES } from '../../shared/events/catalogue.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';

export const handler = httpRoute(route('webhooks.topics'), { summary: 'Events you can subscribe to' }, async () =>
  EVENT_NAMES.map((name) => ({ name, description: EVENT_CATALOGUE[name].description })),
);
