import * as z from 'zod/mini';
import { petParams } from '../../shared/domain/pets/params.ts';
import { petRecordsQuery } from '../../shared/domain/records/input.ts';
import { petRecordBody } from '../../shared/domain/records/responses.ts';
import { listPetRecords } from '../../shared/domain/records/service.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { withHeaders } from '../../shared/http/responses.ts';
import { route } from './routes.ts';

export const handler = httpRoute(
  route('pets.records-list'),
  {
    summary: "A pet's record: its analysis results, review decisions and respiratory measurements",
    description:
      'Newest first, kept until the pet is deleted (the 30-day analysis cache does not bound them). `type` and `since`/`until` (ISO 8601, both included) narrow the list; `Next-Cursor` continues it.',
    headers: ['next-cursor'],
    params: petParams,
    query: petRecordsQuery,
    response: z.array(petRecordBody),
  },
  async ({ params, query, account }, deps) => {
    const { records, cursor } = await listPetRecords(deps, account, params.petId, query);
    return withHeaders(records, cursor === undefined ? {} : { 'next-cursor': cursor });
  },
);
