// The pet's record as its owner reads it: a page of records newest first, one record, or the whole record in one
// document for a vet or an insurer. Owner-scoped like every pet route (requireOwnPet: 404 unknown, 403 another
// account's pet).
import type { Deps } from '../../deps.ts';
import { AppError, notFound } from '../../errors.ts';
import type { Account } from '../accounts/account.ts';
import { requireOwnPet } from '../pets/service.ts';
import type { PetRecordsQuery, RecordSelection } from './input.ts';
import type { PetRecord, RecordInput } from './record.ts';
import { queryRecordPage, queryRecords, readPetRecord } from './store.ts';

type RecordDeps = Pick<Deps, 'ddb' | 'config' | 'now'>;

/**
 * Records one export holds at most. A record is at most about 8 KB of JSON (a health-tips answer in a two-byte-per-
 * character language), so 500 stay well under the 6 MB a Lambda may answer; a longer history is exported in windows.
 */
export const MAX_EXPORT_RECORDS = 500;

export async function listPetRecords(deps: RecordDeps, account: Account, petId: string, query: PetRecordsQuery) {
  await requireOwnPet(deps, account, petId);
  return queryRecordPage(deps, petId, query);
}

export async function getPetRecord(deps: RecordDeps, account: Account, petId: string, recordId: string) {
  await requireOwnPet(deps, account, petId);
  const record = await readPetRecord(deps, petId, recordId);
  if (!record) throw notFound(`Record ${recordId} does not exist on pet ${petId}`);
  return record;
}

/**
 * What a kept result was made from, for another area that builds on it (a vet's decision names the analysis it judged
 * and that analysis' photos): the inputs of the pet's record `recordId`, or [] when it has none.
 */
export async function recordedInputs(
  deps: Pick<Deps, 'ddb' | 'config'>,
  petId: string,
  recordId: string,
): Promise<RecordInput[]> {
  return (await readPetRecord(deps, petId, recordId))?.inputs ?? [];
}

/**
 * Every record of the selection, oldest first, in one document; more than MAX_EXPORT_RECORDS is 422
 * `export_too_large` rather than a document that silently leaves records out.
 */
export async function exportPetRecords(deps: RecordDeps, account: Account, petId: string, selection: RecordSelection) {
  const pet = await requireOwnPet(deps, account, petId);
  const records = await queryRecords(deps, petId, selection, MAX_EXPORT_RECORDS + 1);
  if (records.length > MAX_EXPORT_RECORDS)
    throw new AppError(
      422,
      `Pet ${petId} has more than ${MAX_EXPORT_RECORDS} records in this selection: export it in parts with since and until (or type)`,
      { code: 'export_too_large', details: { limit: MAX_EXPORT_RECORDS } },
    );
  return {
    pet: {
      id: pet.id,
      name: pet.name,
      species_id: pet.species_id,
      breed_ids: pet.breed_ids,
      sub_id: pet.sub_id,
      external_owner_id: pet.external_owner_id,
    },
    selection: {
      type: selection.type ?? null,
      since: selection.since?.toISOString() ?? null,
      until: selection.until?.toISOString() ?? null,
    },
    exported_at: deps.now().toISOString(),
    record_count: records.length,
    records,
  } satisfies { records: PetRecord[] } & Record<string, unknown>;
}
