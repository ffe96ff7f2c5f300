// Imports the rows of a validated manifest (manifest.ts): each photo's bytes are read (a local file or a URL, bounded),
// checked like an upload, stored as a metadata-free copy under public/ in the media bucket and published through the same core as an
// approved public request (shared/domain/images/imports.ts). Ids derive from the bytes: a second run publishes nothing
// twice. One row's failure is reported and never stops the others.
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import breeds from '../../data/breeds.json' with { type: 'json' };
import categories from '../../data/categories.json' with { type: 'json' };
import colours from '../../data/colours.json' with { type: 'json' };
import { s3Client } from '../../shared/aws/s3.ts';
import type { Deps } from '../../shared/deps.ts';
import { IMPORTS_PREFIX, publishImportedPhoto } from '../../shared/domain/images/imports.ts';
import { checkTags, type TagVocabulary } from '../../shared/domain/images/publishing.ts';
import { MAX_PHOTO_BYTES } from '../../shared/domain/images/uploads.ts';
import { inspectPhotoHeader } from '../../shared/media/photo-header.ts';
import { AppError, badRequest } from '../../shared/errors.ts';
import { PHOTO_FORMATS } from '../../shared/media/format.ts';
import { cleanPhoto, UndecodablePhoto } from '../../shared/media/photo-derivatives.ts';
import { servedPhoto } from '../../shared/media/served-object.ts';
import type { ManifestRow, ValidatedManifest } from './manifest.ts';

/** How long one photo may take to download. */
const FETCH_TIMEOUT_MS = 30_000;

/** The committed reference data: the tags an imported photo may carry. */
export const committedVocabulary = (): TagVocabulary => ({
  // The committed JSON, as the reference seed loads it (only ids, species, groups and codes are read here).
  breeds: breeds as unknown as TagVocabulary['breeds'],
  colours: colours.variants as unknown as TagVocabulary['colours'],
  categories: categories as unknown as TagVocabulary['categories'],
});

/** Rows whose tags the reference data does not know, refused with the others before anything is imported. */
export function refuseUnknownTags(manifest: ValidatedManifest, vocabulary: TagVocabulary): ValidatedManifest {
  const rows: ValidatedManifest['rows'] = [];
  const refused = [...manifest.refused];
  for (const entry of manifest.rows) {
    try {
      checkTags(entry.row, vocabulary);
      rows.push(entry);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      refused.push({ line: entry.line, problems: [error.messages].flat() });
    }
  }
  return { rows, refused: refused.sort((a, b) => a.line - b.line) };
}

export interface ImportReport {
  published: { line: number; id: string; url: string }[];
  existing: { line: number; id: string }[];
  failed: { line: number; problem: string }[];
}

type ImportDeps = Pick<Deps, 'ddb' | 'config' | 'now'>;

export async function importPhotos(
  deps: ImportDeps,
  manifest: ValidatedManifest,
  options: { manifestDir: string; vocabulary: TagVocabulary; fetchFn?: typeof fetch },
): Promise<ImportReport> {
  const report: ImportReport = { published: [], existing: [], failed: [] };
  for (const { line, row } of manifest.rows) {
    try {
      const bytes = await photoBytes(row, options.manifestDir, options.fetchFn ?? fetch);
      const { format } = inspectPhotoHeader(bytes);
      // The id is of the bytes as given (a re-run finds them again); what is stored and served is the clean copy: a
      // photographer's camera and position are not published with the photo.
      const id = `im${createHash('sha256').update(bytes).digest('hex').slice(0, 22)}`;
      const file = `${IMPORTS_PREFIX}${id}${PHOTO_FORMATS[format].extension}`;
      const {
        bytes: clean,
        width,
        height,
      } = await cleanPhoto(bytes, format).catch((error: unknown) => {
        throw error instanceof UndecodablePhoto ? badRequest(error.message, { code: 'invalid_image' }) : error;
      });
      await s3Client(deps.config).send(
        new PutObjectCommand({
          Bucket: deps.config.mediaBucket,
          Key: file,
          Body: clean,
          ...servedPhoto(id, format),
        }),
      );
      const outcome = await publishImportedPhoto(
        deps,
        {
          id,
          file,
          width,
          height,
          tags: {
            species_id: row.species_id,
            breed_ids: row.breed_ids,
            colour_ids: row.colour_ids,
            category_ids: row.category_ids,
          },
          attribution: { author: row.author, licence: row.licence, source_url: row.source_url },
        },
        options.vocabulary,
      );
      if (outcome === 'published') report.published.push({ line, id, url: `${deps.config.mediaBaseUrl}/${file}` });
      else report.existing.push({ line, id });
    } catch (error) {
      report.failed.push({
        line,
        problem: error instanceof AppError ? [error.messages].flat().join('; ') : String(error),
      });
    }
  }
  return report;
}

/** The photo's bytes, never more than the photo limit: a local file (stat first) or a download (streamed, capped). */
async function photoBytes(row: ManifestRow, manifestDir: string, fetchFn: typeof fetch): Promise<Buffer> {
  const tooLarge = () => new Error(`larger than the ${MAX_PHOTO_BYTES / 1024 / 1024} MB photo limit`);
  if (row.file !== undefined) {
    const path = resolve(manifestDir, row.file);
    if ((await stat(path)).size > MAX_PHOTO_BYTES) throw tooLarge();
    return readFile(path);
  }
  const response = await fetchFn(row.url!, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), redirect: 'follow' });
  if (!response.ok || !response.body) throw new Error(`${row.url} answered ${response.status}`);
  if (Number(response.headers.get('content-length') ?? 0) > MAX_PHOTO_BYTES) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += chunk.length;
    if (size > MAX_PHOTO_BYTES) throw tooLarge();
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}
