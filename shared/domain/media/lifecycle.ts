// The media lifecycle: for each kind of media, the status changes allowed and the event each one emits. Every
// change is one conditional update (store.ts: `transition`). The stream router reads the same table to name the
// events, so a status change and its event cannot drift apart. Pure data: no SDK in the router's bundle.
import type { EventName } from '../../events/catalogue.ts';

/** null: an allowed change that announces nothing. */
type Transitions = Record<string, Partial<Record<string, EventName | null>>>;

/** Pet photos and videos: recorded (direct upload) or reserved (two-step), the bytes arrive, then ready or rejected. */
const PET_UPLOAD = {
  awaiting_upload: { pending: 'image.uploaded', rejected: null },
  pending: { ready: 'image.processed', rejected: 'image.processed' },
  ready: {},
  rejected: {},
} as const;

export const MEDIA_LIFECYCLE = {
  /** Uploaded photos (item type Image, source upload): recorded first, then their object arrives, then a verdict. */
  photo: {
    awaiting_upload: { pending: 'image.uploaded' },
    pending: { approved: 'image.processed', rejected: 'image.processed' },
    approved: {},
    rejected: {},
  },
  pet_photo: PET_UPLOAD,
  pet_video: PET_UPLOAD,
  /** Portraits are generated, not uploaded: no upload events (docs/decisions.md#pets). */
  portrait: { pending: { ready: null, rejected: null }, ready: {}, rejected: {} },
} as const satisfies Record<string, Transitions>;

export type MediaKind = keyof typeof MEDIA_LIFECYCLE;
export type MediaStatus<K extends MediaKind> = keyof (typeof MEDIA_LIFECYCLE)[K] & string;

function lookup(kind: MediaKind, from: unknown, to: unknown): EventName | null | undefined {
  const table: Transitions = MEDIA_LIFECYCLE[kind];
  if (typeof from !== 'string' || typeof to !== 'string') return undefined;
  return table[from]?.[to];
}

/** The event a committed change emits, or undefined when the change emits none or is not in the table. */
export function eventOfTransition(kind: MediaKind, from: unknown, to: unknown): EventName | undefined {
  return lookup(kind, from, to) ?? undefined;
}

export function isAllowedTransition(kind: MediaKind, from: unknown, to: unknown): boolean {
  return lookup(kind, from, to) !== undefined;
}

/** The lifecycle of a pet media item by its `kind` attribute. */
export const PET_MEDIA_LIFECYCLE = { photo: 'pet_photo', video: 'pet_video', portrait: 'portrait' } as const;
