// The pet routes' path parameters, apart from the request bodies in input.ts: the analysis, review and media routes
// take a pet id without bundling the pet profile's schemas.
import * as z from 'zod/mini';
import { text } from '../../schema/params.ts';

export const petParams = z.strictObject({ petId: text({ max: 40 }) });
export const petMediaParams = z.strictObject({ petId: text({ max: 40 }), imageId: text({ max: 40 }) });
