import Negotiator from 'negotiator';
import { petParams } from '../../shared/domain/pets/params.ts';
import { CSV_COLUMNS, recordsCsv } from '../../shared/domain/records/csv.ts';
import { recordExportQuery } from '../../shared/domain/records/input.ts';
import { petRecordExportBody } from '../../shared/domain/records/responses.ts';
import { exportPetRecords, MAX_EXPORT_RECORDS } from '../../shared/domain/records/service.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { PreparedReply, withHeaders } from '../../shared/http/responses.ts';
import { route } from './routes.ts';

const JSON_TYPE = 'application/json';
const CSV_TYPE = 'text/csv';

export const handler = httpRoute(
  route('pets.records-export'),
  {
    summary: "The pet's whole record in one document, for a vet or an insurer",
    description: `Every record of the selection (\`type\`, \`since\`, \`until\` as on the list), oldest first, as JSON, or with \`Accept: text/csv\` as CSV (RFC 4180, a header row, columns ${CSV_COLUMNS.map((c) => `\`${c}\``).join(', ')}; \`inputs\` holds \`kind:id:sha256\` per input, \`result\` the result as JSON). At most ${MAX_EXPORT_RECORDS} records: a larger selection is 422 \`export_too_large\` (export it in parts with \`since\`/\`until\`), never a document that leaves records out.`,
    params: petParams,
    query: recordExportQuery,
    response: petRecordExportBody,
    contentTypes: [JSON_TYPE, CSV_TYPE],
    errors: [422],
  },
  async ({ params, query, account, headers }, deps) => {
    const exported = await exportPetRecords(deps, account, params.petId, query);
    // The same URL answers two formats: caches must key on Accept.
    if (new Negotiator({ headers }).mediaType([JSON_TYPE, CSV_TYPE]) !== CSV_TYPE)
      return withHeaders(exported, { vary: 'accept' });
    return new PreparedReply({
      statusCode: 200,
      headers: {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="pet-${params.petId}-records.csv"`,
        vary: 'accept',
      },
      body: recordsCsv(exported.records),
    });
  },
);
