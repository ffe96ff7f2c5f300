import * as z from 'zod/mini';
import { getOwnVote, presentVote } from '../../shared/domain/interactions/votes.ts';
import { integer } from '../../shared/http/params.ts';
import { bearerTokens } from '../../shared/auth/bearer.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';

export const voteIdParams = z.object({ vote_id: integer({ min: 1, max: Number.MAX_SAFE_INTEGER }) });

export const handler = httpRoute(
  route('votes.get'),
  { bearerTokens, summary: 'One of your votes', params: voteIdParams },
  async ({ params, account }, deps) => presentVote(await getOwnVote(deps, account, params.vote_id)),
);
