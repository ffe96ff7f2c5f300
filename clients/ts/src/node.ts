// Node only (`@pet-api/client/node`): files from paths, read lazily, for the upload helpers.
import { openAsBlob } from 'node:fs';
import { basename, extname } from 'node:path';

/** The types the API takes, by file extension; the API judges files by their bytes, this only labels them. */
const TYPES: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.mp4': 'video/mp4',
  '.mov': 'video/quicktime',
  '.webm': 'video/webm',
  '.avi': 'video/x-msvideo',
  '.mpeg': 'video/mpeg',
  '.mpg': 'video/mpeg',
  '.3gp': 'video/3gpp',
};

/** A File for the file at `path` (named by its base name, typed by its extension unless `type` is given). */
export async function fileFromPath(path: string, type?: string): Promise<File> {
  const contentType = type ?? TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
  const blob = await openAsBlob(path, { type: contentType });
  return new File([blob], basename(path), { type: contentType });
}
