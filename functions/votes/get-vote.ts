import * as z from 'zod/mini';
import { getOwnVote, presentVote } from '../../shared/domain/interactions/votes.ts';
import { integer } from '../../shared/schema/params.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { voteBody } from '../../shared/domain/interactions/responses.ts';

export const voteIdParams = z.object({ vote_id: integer({ min: 1, max: Number.MAX_SAFE_INTEGER }) });

export const handler = httpRoute(
  route('votes.get'),
  { summary: 'One of your votes', params: voteIdParams, response: voteBody },
  async ({ params, account }, deps) => presentVote(await getOwnVote(deps, account, params.vote_id)),
);
