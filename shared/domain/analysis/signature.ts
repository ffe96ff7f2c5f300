// The cache key of an analysis: everything its answer depends on (spec rule 1), hashed.
import { createHash } from 'node:crypto';

/** Same signature, same answer: what the result depends on, hashed. */
export function requestSignature(parts: {
  kind: string;
  promptVersion: string;
  photoHashes: string[];
  lang: string;
  season?: string | undefined;
  country?: string | undefined;
  basedOn?: string[];
}): string {
  const canonical = JSON.stringify([
    parts.kind,
    parts.promptVersion,
    [...parts.photoHashes].sort(),
    parts.lang,
    parts.season ?? null,
    parts.country ?? null,
    parts.basedOn ?? [],
  ]);
  return createHash('sha256').update(canonical).digest('hex').slice(0, 40);
}
