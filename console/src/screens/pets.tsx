import { useState } from 'preact/hooks';
import { type Api, ok, type Schema, withHeaders } from '../api.ts';
import { ScreenTitle, Section, Show, Table, useLoad, when } from '../ui.tsx';

const PAGE_SIZE = 20;

/** The account's pets, a page at a time (Pagination-Count from the API). */
export function PetsScreen({ api }: { api: Api }) {
  const [page, setPage] = useState(0);
  const pets = useLoad(
    () => withHeaders(api.GET('/pets', { params: { query: { limit: PAGE_SIZE, page, order: 'DESC' } } })),
    [page],
  );
  return (
    <>
      <ScreenTitle>Pets</ScreenTitle>
      <Show loaded={pets}>
        {({ data, headers }) => {
          const total = Number(headers.get('pagination-count') ?? data.length);
          const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
          return data.length === 0 ? (
            <p class="muted">No pets yet.</p>
          ) : (
            <>
              <Table
                caption={`${total} pets, page ${page + 1} of ${pages}`}
                columns={['Name', 'Species', 'Breeds', 'Photos', 'Videos', 'Portraits']}
              >
                {data.map((pet) => (
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
              <Pager page={page} pages={pages} onPage={setPage} />
            </>
          );
        }}
      </Show>
    </>
  );
}

function Pager({ page, pages, onPage }: { page: number; pages: number; onPage: (page: number) => void }) {
  return (
    <nav class="actions" aria-label="Pages">
      <button type="button" disabled={page === 0} onClick={() => onPage(page - 1)}>
        Previous page
      </button>
      <button type="button" disabled={page + 1 >= pages} onClick={() => onPage(page + 1)}>
        Next page
      </button>
    </nav>
  );
}

type Media = Schema<'PetMedia'>;
const GALLERY_LABELS = { photo: 'Photo', video: 'Video' } as const;

function Gallery({ label, items, petName }: { label: string; items: Media[]; petName: string }) {
  if (items.length === 0) return <p class="muted">No {label.toLowerCase()}.</p>;
  return (
    <ul class="gallery" aria-label={label}>
      {items.map((item, index) => (
        <li key={item.id}>
          <MediaItem item={item} alt={`${label} ${index + 1} of ${petName}`} />
          <div class="muted">
            {item.style ?? item.status}
            {item.reason && `: ${item.reason}`}
          </div>
        </li>
      ))}
    </ul>
  );
}

function MediaItem({ item, alt }: { item: Media; alt: string }) {
  if (!item.url) return <div class="placeholder">{item.status}</div>;
  if (item.kind === 'video') {
    // biome-ignore lint/a11y/useMediaCaption: owners' own clips have no captions to offer
    return <video controls preload="metadata" src={item.url} aria-label={alt} />;
  }
  return (
    <a href={item.url}>
      <img src={item.thumbnail_url ?? item.url} alt={alt} loading="lazy" />
    </a>
  );
}

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
            <dl class="facts">
              <dt>Species</dt>
              <dd>{p.species_id}</dd>
              <dt>Breeds</dt>
              <dd>{p.breeds.map((b) => b.name).join(', ') || '–'}</dd>
              <dt>Sex</dt>
              <dd>{p.sex ?? '–'}</dd>
              <dt>Neutered</dt>
              <dd>{p.neutered === null ? '–' : p.neutered ? 'yes' : 'no'}</dd>
              <dt>Born</dt>
              <dd>{p.birth_date ?? '–'}</dd>
              <dt>Weight</dt>
              <dd>{p.weight_kg === null ? '–' : `${p.weight_kg} kg`}</dd>
              <dt>Added</dt>
              <dd>{when(p.created_at)}</dd>
            </dl>
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
