// The image a vote or favourite names: read once before the write (the write's transaction checks it again), and the
// reference check the pipeline adds to a 400 when the body has other problems too.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { imageKey } from '../../db/keys.ts';
import type { Deps } from '../../deps.ts';
import { badRequest } from '../../errors.ts';

type ReadDeps = Pick<Deps, 'ddb' | 'config'>;

const missing = (imageId: string) => `image_id ${imageId} does not exist`;

export const imageNotFound = (imageId: string) => badRequest(missing(imageId), { code: 'image_not_found' });

const readImage = async (deps: ReadDeps, imageId: string) =>
  (await deps.ddb.send(new GetCommand({ TableName: deps.config.tableName, Key: imageKey(imageId) }))).Item;

/** The image item, or 400 `image_not_found`. */
export async function requireImage(deps: ReadDeps, imageId: string): Promise<Record<string, unknown>> {
  const image = await readImage(deps, imageId);
  if (!image) throw imageNotFound(imageId);
  return image;
}

/** For `withReferences` on a body with an `image_id`. */
export async function imageProblems(deps: ReadDeps, body: { image_id?: string | undefined }): Promise<string[]> {
  if (body.image_id === undefined || (await readImage(deps, body.image_id))) return [];
  return [missing(body.image_id)];
}
