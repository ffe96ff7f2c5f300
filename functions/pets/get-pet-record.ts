import { petRecordParams } from '../../shared/domain/records/input.ts';
import { petRecordBody } from '../../shared/domain/records/responses.ts';
import { getPetRecord } from '../../shared/domain/records/service.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';

export const handler = httpRoute(
  route('pets.records-get'),
  {
    summary: "One record of a pet's record",
    description: "An analysis answer's `record_id` names its record, and so does a decided review's.",
    params: petRecordParams,
    response: petRecordBody,
  },
  ({ params, account }, deps) => getPetRecord(deps, account, params.petId, params.recordId),
);
