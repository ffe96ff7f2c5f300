import * as z from 'zod/mini';
import { petParams } from '../../shared/domain/pets/params.ts';
import { presentPetMedia } from '../../shared/domain/pets/media.ts';
import { MAX_PHOTOS_PER_REQUEST } from '../../shared/domain/pets/photos.ts';
import { addPetPhotos } from '../../shared/domain/pets/service.ts';
import { DIRECT_PET_UPLOAD_MAX_BYTES, parsePetUploadForm } from '../../shared/domain/pets/upload-form.ts';
import { badRequest } from '../../shared/errors.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { petMediaBody } from '../../shared/domain/pets/responses.ts';

const limits = {
  maxFileBytes: DIRECT_PET_UPLOAD_MAX_BYTES,
  maxFiles: MAX_PHOTOS_PER_REQUEST,
  maxFields: 0,
  allowedFileFields: ['images'],
};

/** multipart/form-data, photos in `images` (one or more): an array of pet image records, duplicates flagged. */
export const handler = httpRoute(
  route('pets.photos-upload'),
  {
    summary: 'Add photos to a pet',
    description:
      'multipart/form-data, photos in `images`. The same bytes twice on one pet come back as the existing record with `duplicate: true`. A pet takes 100 new photos per 24 hours (429 `pet_upload_rate_exceeded`).',
    errors: [415, 429],
    params: petParams,
    form: { parse: parsePetUploadForm, limits, fields: z.strictObject({}) },
    response: z.array(petMediaBody),
  },
  async ({ params, form, account }, deps) => {
    if (form.files.length === 0) throw badRequest(['images is required (one or more photo files)']);
    const added = await addPetPhotos(deps, account, params.petId, form.files);
    return Promise.all(added.map((p) => presentPetMedia(deps, p.media, p.duplicate)));
  },
);
