import { SUCCESS } from '../../shared/http/responses.ts';
import { deleteVote } from '../../shared/domain/interactions/votes.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { voteIdParams } from './get-vote.ts';
import { successMessage } from '../../shared/domain/images/responses.ts';

export const handler = httpRoute(
  route('votes.delete'),
  { summary: 'Delete one of your votes', params: voteIdParams, response: successMessage },
  async ({ params, account }, deps) => {
    await deleteVote(deps, account, params.vote_id);
    return SUCCESS;
  },
);
