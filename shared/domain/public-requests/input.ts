// Request schemas of the public-library routes (the image's owner and the administrators).
import * as z from 'zod/mini';
import { pageParam } from '../../schema/paging.ts';
import { caseInsensitiveEnum, integer, text } from '../../schema/params.ts';
import { withReferences } from '../../schema/references.ts';
import { loadTagVocabulary, MAX_PUBLIC_TAGS, tagProblems } from '../images/publishing.ts';
import { SPECIES } from '../reference/species.ts';
import { CONTRIBUTOR_LICENCES, DEFAULT_CONTRIBUTOR_LICENCE } from './request.ts';

/** The real service's bound on a request message; the administrator's answer has the same. */
export const MAX_REQUEST_MESSAGE_LENGTH = 500;
export const MAX_AUTHOR_LENGTH = 200;

/** POST /images/{id}/public-requests: an optional note, and how the photo is credited and licensed (`{}` for none). */
export const createPublicRequestBody = z.strictObject({
  request_message: z._default(z.nullable(text({ max: MAX_REQUEST_MESSAGE_LENGTH, lineBreaks: true })), null),
  author: z._default(z.nullable(text({ max: MAX_AUTHOR_LENGTH })), null),
  licence: z._default(z.enum(CONTRIBUTOR_LICENCES), DEFAULT_CONTRIBUTOR_LICENCE),
});
export type CreatePublicRequest = z.output<typeof createPublicRequestBody>;

const tagList = <T extends z.ZodMiniType>(item: T) => z._default(z.array(item).check(z.maxLength(MAX_PUBLIC_TAGS)), []);

/** POST /images/public-requests/{requestId}/approve: what the photo shows, as search filters find it. */
export const approvePublicRequestBody = withReferences(
  z.strictObject({
    species_id: z.enum(SPECIES),
    breed_ids: tagList(text({ max: 100 })),
    colour_ids: tagList(text({ max: 100 })),
    category_ids: tagList(z.int().check(z.gte(1), z.lte(1_000_000))),
    admin_message: z._default(z.nullable(text({ max: MAX_REQUEST_MESSAGE_LENGTH, lineBreaks: true })), null),
  }),
  async (tags, deps) => tagProblems(tags, await loadTagVocabulary(deps)),
);
export type ApprovePublicRequest = z.output<typeof approvePublicRequestBody>;

/** POST /images/public-requests/{requestId}/deny: why, for the owner. */
export const denyPublicRequestBody = z.strictObject({
  admin_message: text({ max: MAX_REQUEST_MESSAGE_LENGTH, lineBreaks: true }),
});

/** GET /images/public-requests: the administrators' queue, oldest request first. */
export const publicRequestQueueQuery = z.strictObject({
  status: z._default(caseInsensitiveEnum(['pending'] as const), 'pending'),
  limit: z._default(integer({ min: 1, max: 100 }), 10),
  page: pageParam,
});
export type PublicRequestQueueQuery = z.output<typeof publicRequestQueueQuery>;

export const requestIdParams = z.strictObject({ requestId: text({ max: 100 }) });
