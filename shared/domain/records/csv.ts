// The pet's record as CSV (RFC 4180 by csv-stringify: CRLF line ends, fields with a comma, quote or line break quoted,
// quotes doubled), one row per record in the export's order under a fixed header. docs/analysis.md#export.
import { stringify } from 'csv-stringify/sync';
import type { PetRecord } from './record.ts';

/** The columns, in order: the header row names them. `inputs` and `result` hold what a flat row cannot. */
export const CSV_COLUMNS = [
  'id',
  'created_at',
  'type',
  'pet_id',
  'account_id',
  'sub_id',
  'provider',
  'model_id',
  'method_version',
  'lang',
  'season',
  'country',
  'vet_account_id',
  'vet_decision',
  'inputs',
  'result',
] as const;

const row = (r: PetRecord): Record<(typeof CSV_COLUMNS)[number], string | null> => ({
  id: r.id,
  created_at: r.created_at,
  type: r.type,
  pet_id: r.pet_id,
  account_id: r.asked_by.account_id,
  sub_id: r.asked_by.sub_id,
  provider: r.provider,
  model_id: r.model_id,
  method_version: r.method_version,
  lang: r.lang,
  season: r.season,
  country: r.country,
  vet_account_id: r.vet?.account_id ?? null,
  vet_decision: r.vet?.decision ?? null,
  // `kind:id:sha256` per input, separated by spaces (ids and hashes hold neither spaces nor colons).
  inputs: r.inputs.map((i) => `${i.kind}:${i.id}:${i.sha256 ?? ''}`).join(' '),
  result: JSON.stringify(r.result),
});

/**
 * Cells that a spreadsheet would run as a formula (starting with =, +, -, @, tab or carriage return: free text from
 * a model or a vet can) are prefixed with a single quote (OWASP: CSV injection).
 */
export const recordsCsv = (records: PetRecord[]) =>
  stringify(records.map(row), {
    header: true,
    columns: [...CSV_COLUMNS],
    record_delimiter: 'windows',
    escape_formulas: true,
  });
