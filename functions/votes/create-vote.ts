import * as z from 'zod/mini';
import { subIdParam } from '../../shared/schema/sub-id.ts';
import { createVote, presentVote, VOTE_VALUES } from '../../shared/domain/interactions/votes.ts';
import { text } from '../../shared/schema/params.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { withReferences } from '../../shared/schema/references.ts';
import { imageProblems } from '../../shared/domain/interactions/image-reference.ts';
import { route } from './routes.ts';
import { viewerCountry } from '../../shared/http/viewer-country.ts';
import { voteBody } from '../../shared/domain/interactions/responses.ts';

const body = withReferences(
  z.strictObject({
    image_id: text({ max: 100 }),
    value: z.literal(VOTE_VALUES),
    sub_id: z.optional(subIdParam),
  }),
  (fields, deps) => imageProblems(deps, fields),
);

export const handler = httpRoute(
  route('votes.create'),
  { summary: 'Vote on an image', body, response: voteBody },
  async ({ body, account, headers }, deps) =>
    presentVote(await createVote(deps, account, body, viewerCountry(headers))),
);
