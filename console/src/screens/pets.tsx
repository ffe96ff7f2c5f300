import { type Api, ok, type Schema, withHeaders } from '../api.ts';
import { Gallery, PetFacts } from '../media.tsx';
import { Paged, ScreenTitle, Section, Show, Table, useLoad, when } from '../ui.tsx';

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

/** One pet: its facts, photos, videos, portraits, and its body condition analyses with their reviews. */
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
    </>
  );
}
