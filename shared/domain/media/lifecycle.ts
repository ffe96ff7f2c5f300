// The media lifecycle: for each kind of media, the status changes allowed and the event each one emits. Every
// change is one conditional update (store.ts: `transition`). The stream router reads the same table to name the
// events, so a status change and its event cannot drift apart. Pure data: no SDK in the router's bundle.
import type { EventName } from '../../events/catalogue.ts';

type Transitions = Record<string, Partial<Record<string, EventName>>>;

export const MEDIA_LIFECYCLE = {
  /** Uploaded photos (item type Image, source upload): recorded first, then their object arrives, then a verdict. */
  photo: {
    awaiting_upload: { pending: 'image.uploaded' },
    pending: { approved: 'image.processed', rejected: 'image.processed' },
    approved: {},
    rejected: {},
  },
} as const satisfies Record<string, Transitions>;

export type MediaKind = keyof typeof MEDIA_LIFECYCLE;
export type MediaStatus<K extends MediaKind> = keyof (typeof MEDIA_LIFECYCLE)[K] & string;

/** The event a committed change emits, or undefined when the change is not in the table (or is no change). */
export function eventOfTransition(kind: MediaKind, from: unknown, to: unknown): EventName | undefined {
  const table: Transitions = MEDIA_LIFECYCLE[kind];
  if (typeof from !== 'string' || typeof to !== 'string') return undefined;
  return table[from]?.[to];
}
