import { petParams } from '../../shared/domain/pets/params.ts';
import { measurementListQuery } from '../../shared/domain/respiration/input.ts';
import { listRespiratoryRates } from '../../shared/domain/respiration/service.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { withHeaders } from '../../shared/http/responses.ts';
import { route } from './routes.ts';
import { respiratoryRateList } from '../../shared/domain/respiration/responses.ts';

/** The pet's completed measurements, newest first, with the trend of its newest ones against its own baseline. */
export const handler = httpRoute(
  route('analysis.respiratory-rate-list'),
  {
    summary: "A pet's respiratory-rate measurements and their trend",
    description:
      "The pet's completed measurements, newest first (`limit` 1–100, default 10; `Next-Cursor` continues the list). `trend` compares the latest rate with the pet's own baseline, the low median of up to 7 completed measurements before it (at least 3, else `null` with the reason), and is the same on every page (docs/respiratory-rate.md#trend-and-alerts).",
    headers: ['next-cursor'],
    params: petParams,
    query: measurementListQuery,
    response: respiratoryRateList,
  },
  async ({ params, query, account }, deps) => {
    const { body, cursor } = await listRespiratoryRates(deps, account, params.petId, query);
    return withHeaders(body, cursor === undefined ? {} : { 'next-cursor': cursor });
  },
);
