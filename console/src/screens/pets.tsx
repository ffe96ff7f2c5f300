import { type Api, ok, type Schema, withHeaders } from '../api.ts';
import { Gallery, PetFacts } from '../media.tsx';
import { Paged, ScreenTitle, Section, Show, Table, useLoad, when } from '../ui.tsx';
import { Reasoning } from './reviews.tsx';

const PAGE_SIZE = 20;

/** The account's pets, newest first, a page at a time. */
export function PetsScreen({ api }: { api: Api }) {
  const load = (page: number) =>
    withHeaders(api.GET('/pets', { params: { query: { limit: PAGE_SIZE, page, order: 'DESC' } } }));
  return (
    <>
      <ScreenTitle>Pets</ScreenTitle>
      <Paged load={load} pageSize={PAGE_SIZE} empty="No pets yet.">
        {(pets, { total, page, pages }) => (
          <Table
            caption={`${total} pets, page ${page + 1} of ${pages}`}
            columns={['Name', 'Species', 'Breeds', 'Photos', 'Videos', 'Portraits']}
          >
            {pets.map((pet) => (
              <tr key={pet.id}>
                <th scope="row">
                  <a href={`#/pets/${encodeURIComponent(pet.id)}`}>{pet.name}</a>
                </th>
                <td>{pet.species_id}</td>
                <td>{pet.breeds.map((b) => b.name).join(', ') || '–'}</td>
                <td>{pet.photo_count}</td>
                <td>{pet.video_count}</td>
                <td>{pet.portrait_count}</td>
              </tr>
            ))}
          </Table>
        )}
      </Paged>
    </>
  );
}

const GALLERY_LABELS = { photo: 'Photo', video: 'Video' } as const;

function Reviews({ reviews }: { reviews: Schema<'BodyConditionReview'>[] }) {
  if (reviews.length === 0) return <p class="muted">No body condition analyses sent for review.</p>;
  return (
    <Table
      caption="Body condition analyses and their vet reviews"
      columns={['Requested', 'Model score', 'Confidence', 'Review', 'Vet score', 'Notes or reason']}
    >
      {reviews.map((review) => (
        <tr key={review.id}>
          <td>{when(review.requested_at)}</td>
          <td>
            {review.analysis.score} ({review.analysis.category})
            <details>
              <summary>Why</summary>
              <Reasoning explanation={review.analysis.explanation} />
            </details>
          </td>
          <td>{Math.round(review.analysis.confidence * 100)}%</td>
          <td>{review.status}</td>
          <td>{review.score === null ? '–' : `${review.score} (${review.category})`}</td>
          <td>{review.notes ?? review.reason ?? '–'}</td>
        </tr>
      ))}
    </Table>
  );
}

type PetRecord = Schema<'PetRecord'>;

/** Records the pet screen shows: the newest; the API's export holds all of them. */
const RECORDS_SHOWN = 20;

const RECORD_TYPES: Record<PetRecord['type'], string> = {
  body_condition_score: 'Body condition score',
  estimated_age: 'Estimated age',
  genealogy: 'Breed mix',
  muscle_condition_score: 'Muscle condition score',
  estimated_weight: 'Estimated weight',
  health_tips: 'Health tips',
  bcs_review: 'Vet review',
  respiratory_rate: 'Respiratory rate',
};

/** The one figure a record is known by, where its result has one. */
function keyFigure(record: PetRecord): string {
  const { result } = record;
  if (typeof result.breaths_per_minute === 'number') return `${result.breaths_per_minute} breaths/min`;
  if (record.type === 'bcs_review') return result.status === 'completed' ? `completed: ${result.score}` : 'rejected';
  if (typeof result.score === 'number') return `score ${result.score}`;
  return '–';
}

/** What produced a record: the vet who decided, the model, or the signal method. */
const madeBy = (record: PetRecord) =>
  record.vet ? `a vet (${record.vet.decision})` : (record.model_id ?? record.method_version ?? '–');

const PLURALS: Record<PetRecord['inputs'][number]['kind'], string> = {
  photo: 'photos',
  video: 'videos',
  analysis: 'analyses',
};

/** What a record was made from, counted by kind: "2 photos", "1 analysis, 1 photo". */
function inputsOf(record: PetRecord): string {
  const counts = new Map<keyof typeof PLURALS, number>();
  for (const { kind } of record.inputs) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  return [...counts].map(([kind, n]) => `${n} ${n === 1 ? kind : PLURALS[kind]}`).join(', ');
}

/** The pet's health record, newest first: every kept result with what it was made from. */
function Records({ records }: { records: PetRecord[] }) {
  if (records.length === 0) return <p class="muted">No results kept yet.</p>;
  return (
    <Table
      caption={`The newest ${records.length} records (GET /v1/pets/{petId}/records/export has them all, with hashes)`}
      columns={['Made', 'Type', 'Result', 'Made from', 'By']}
    >
      {records.map((record) => (
        <tr key={record.id}>
          <td>{when(record.created_at)}</td>
          <td>{RECORD_TYPES[record.type]}</td>
          <td>{keyFigure(record)}</td>
          <td>{inputsOf(record)}</td>
          <td>{madeBy(record)}</td>
        </tr>
      ))}
    </Table>
  );
}

/** One pet: its facts, photos, videos, portraits, its body condition analyses with their reviews, and
 * its health record. */
export function PetScreen({ api, petId }: { api: Api; petId: string }) {
  const path = { petId };
  const pet = useLoad(() => ok(api.GET('/pets/{petId}', { params: { path } })), [petId]);
  const media = useLoad(
    () => ok(api.GET('/pets/{petId}/images', { params: { path, query: { limit: 100 } } })),
    [petId],
  );
  const portraits = useLoad(
    () => ok(api.GET('/pets/{petId}/portraits', { params: { path, query: { limit: 100 } } })),
    [petId],
  );
  const features = useLoad(() => ok(api.GET('/accounts/features')), []);
  const reviewsShown = features.data?.includes('body_condition') === true;
  const reviews = useLoad(
    async () =>
      reviewsShown
        ? ok(api.GET('/pets/{petId}/body-condition-score/reviews', { params: { path, query: { limit: 100 } } }))
        : [],
    [petId, reviewsShown],
  );
  const records = useLoad(
    () => ok(api.GET('/pets/{petId}/records', { params: { path, query: { limit: RECORDS_SHOWN } } })),
    [petId],
  );
  const name = pet.data?.name ?? 'the pet';
  return (
    <>
      <p>
        <a href="#/pets">All pets</a>
      </p>
      <Show loaded={pet}>
        {(p) => (
          <>
            <ScreenTitle>{p.name}</ScreenTitle>
            <PetFacts pet={{ ...p, breeds: p.breeds.map((b) => b.name).join(', ') }} />
          </>
        )}
      </Show>
      {(['photo', 'video'] as const).map((kind) => (
        <Section key={kind} title={`${GALLERY_LABELS[kind]}s`}>
          <Show loaded={media}>
            {(list) => (
              <Gallery label={GALLERY_LABELS[kind]} items={list.filter((m) => m.kind === kind)} petName={name} />
            )}
          </Show>
        </Section>
      ))}
      <Section title="Portraits">
        <Show loaded={portraits}>{(list) => <Gallery label="Portrait" items={list} petName={name} />}</Show>
      </Section>
      <Section title="Analyses and vet reviews">
        {features.data && !reviewsShown ? (
          <p class="muted">Body condition analysis needs the account feature body_condition.</p>
        ) : (
          <Show loaded={reviews}>{(list) => <Reviews reviews={list} />}</Show>
        )}
      </Section>
      <Section title="Health record">
        <Show loaded={records}>{(list) => <Records records={list} />}</Show>
      </Section>
    </>
  );
}
