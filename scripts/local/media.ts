// Local mode's media: the catalogue's JPEGs are rendered once into .local/images, then put into the fauxqs bucket.
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { CreateBucketCommand, HeadBucketCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { catalogueImages } from '../../shared/domain/images/seed.ts';
import { renderImages } from '../data/render-images.ts';
import { servedObject } from '../../shared/media/served-object.ts';

export const LOCAL_MEDIA_BUCKET = 'pet-api-media';
const RENDER_DIR = join(import.meta.dirname, '..', '..', '.local', 'images');

export async function publishCatalogueImages(s3: S3Client): Promise<{ uploaded: number; rendered: number }> {
  await s3
    .send(new HeadBucketCommand({ Bucket: LOCAL_MEDIA_BUCKET }))
    .catch(() => s3.send(new CreateBucketCommand({ Bucket: LOCAL_MEDIA_BUCKET })));
  const { rendered } = await renderImages(RENDER_DIR);
  const files = catalogueImages().map((i) => i.file);
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      const file = files[next++]!;
      await s3.send(
        new PutObjectCommand({
          Bucket: LOCAL_MEDIA_BUCKET,
          Key: file,
          Body: await readFile(join(RENDER_DIR, file)),
          ...servedObject(basename(file), 'image/jpeg'),
        }),
      );
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return { uploaded: files.length, rendered };
}
