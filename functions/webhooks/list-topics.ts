import { EVENT_CATALOGUE, EVENT_NAMES } from '../../shared/events/catalogue.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { topicList } from '../../shared/domain/webhooks/responses.ts';

export const handler = httpRoute(
  route('webhooks.topics'),
  { summary: 'Events you can subscribe to', response: topicList },
  async () => EVENT_NAMES.map((name) => ({ name, description: EVENT_CATALOGUE[name].description })),
);
