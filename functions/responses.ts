// What every route answers, by route id: the areas' response schemas (functions/<area>/responses.ts), joined for the
// OpenAPI generator (scripts/openapi). No handler imports this module or the areas' ones: the schemas are types there.
import { systemResponses } from './system/responses.ts';
import { docsResponses } from './docs/responses.ts';
import { authResponses } from './auth/responses.ts';
import { accountsResponses } from './accounts/responses.ts';
import { factsResponses } from './facts/responses.ts';
import { healthTipsResponses } from './health-tips/responses.ts';
import { categoriesResponses } from './categories/responses.ts';
import { breedsResponses } from './breeds/responses.ts';
import { bansResponses } from './bans/responses.ts';
import { imagesResponses } from './images/responses.ts';
import { petsResponses } from './pets/responses.ts';
import { votesResponses } from './votes/responses.ts';
import { favouritesResponses } from './favourites/responses.ts';
import { analysisResponses } from './analysis/responses.ts';
import { reviewsResponses } from './reviews/responses.ts';
import { calculatorsResponses } from './calculators/responses.ts';
import { webhooksResponses } from './webhooks/responses.ts';
import type { ResponseSchemas } from '../shared/http/route-def.ts';
import type { routes } from './routes.ts';

export const routeResponses = {
  ...systemResponses,
  ...docsResponses,
  ...authResponses,
  ...accountsResponses,
  ...factsResponses,
  ...healthTipsResponses,
  ...categoriesResponses,
  ...breedsResponses,
  ...bansResponses,
  ...imagesResponses,
  ...petsResponses,
  ...votesResponses,
  ...favouritesResponses,
  ...analysisResponses,
  ...reviewsResponses,
  ...calculatorsResponses,
  ...webhooksResponses,
} satisfies ResponseSchemas<typeof routes>;
