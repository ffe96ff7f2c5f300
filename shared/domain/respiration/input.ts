// Request schemas of the respiratory-rate routes.
import * as z from 'zod/mini';
import { integer, MAX_CURSOR_LENGTH, text } from '../../schema/params.ts';
import { langParam } from '../reference/i18n.ts';

/** POST: which video (default: the pet's newest ready one). */
export const measurementRequestBody = z.strictObject({ video_id: z.optional(text({ max: 40 })) });

/** POST: the language of the disclaimer, kept with the measurement for its webhook body. */
export const measurementRequestQuery = z.strictObject({ lang: z._default(langParam, 'en') });

/** GET: the disclaimer in another language than the request's. */
export const measurementReadQuery = z.strictObject({ lang: z.optional(langParam) });

export const measurementParams = z.strictObject({ petId: text({ max: 40 }), measurementId: text({ max: 40 }) });

/** GET the list: newest first, `limit` per page, continued by `cursor`. */
export const measurementListQuery = z.strictObject({
  limit: z._default(integer({ min: 1, max: 100 }), 10),
  cursor: z.optional(text({ max: MAX_CURSOR_LENGTH })),
  lang: z.optional(langParam),
});
