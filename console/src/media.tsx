// Pets' media and facts as the pet and review screens show them.
import type { Schema } from './api.ts';
import { when } from './ui.tsx';

type Media = Schema<'PetMedia'>;

export function Gallery({ label, items, petName }: { label: string; items: Media[]; petName: string }) {
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

/** What the owner told about the pet: the same list on the owner's pet screen and the vet's review screen. */
interface ShownPet {
  species_id: string;
  /** Breed names (or ids) joined. */
  breeds: string;
  sex: string | null;
  neutered: boolean | null;
  birth_date: string | null;
  weight_kg: number | null;
  created_at?: string;
}

export function PetFacts({ pet }: { pet: ShownPet }) {
  return (
    <dl class="facts">
      <dt>Species</dt>
      <dd>{pet.species_id}</dd>
      <dt>Breeds</dt>
      <dd>{pet.breeds || '–'}</dd>
      <dt>Sex</dt>
      <dd>{pet.sex ?? '–'}</dd>
      <dt>Neutered</dt>
      <dd>{pet.neutered === null ? '–' : pet.neutered ? 'yes' : 'no'}</dd>
      <dt>Born</dt>
      <dd>{pet.birth_date ?? '–'}</dd>
      <dt>Weight</dt>
      <dd>{pet.weight_kg === null ? '–' : `${pet.weight_kg} kg`}</dd>
      {pet.created_at && (
        <>
          <dt>Added</dt>
          <dd>{when(pet.created_at)}</dd>
        </>
      )}
    </dl>
  );
}
