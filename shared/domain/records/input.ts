// Request schemas of the pet record routes.
import * as z from 'zod/mini';
import { integer, isoTime, MAX_CURSOR_LENGTH, sinceNotAfterUntil, text } from '../../schema/params.ts';
import { RECORD_TYPES } from './record.ts';

export const petRecordParams = z.strictObject({ petId: text({ max: 40 }), recordId: text({ max: 40 }) });

/** Which records: of one type, made within a time window (both ends included). */
const selection = {
  type: z.optional(z.enum(RECORD_TYPES)),
  since: z.optional(isoTime),
  until: z.optional(isoTime),
};

/** GET /pets/{petId}/records: newest first, continued with `cursor`. */
export const petRecordsQuery = z
  .strictObject({
    ...selection,
    limit: z._default(integer({ min: 1, max: 100 }), 10),
    cursor: z.optional(text({ max: MAX_CURSOR_LENGTH })),
  })
  .check(sinceNotAfterUntil);

/** GET /pets/{petId}/records/export: every record of the selection in one document. */
export const recordExportQuery = z.strictObject(selection).check(sinceNotAfterUntil);

export type RecordSelection = z.output<typeof recordExportQuery>;
export type PetRecordsQuery = z.output<typeof petRecordsQuery>;
