import { createPetFields } from '../../shared/domain/pets/input.ts';
import { presentPetMedia } from '../../shared/domain/pets/media.ts';
import { MAX_PHOTOS_PER_REQUEST } from '../../shared/domain/pets/photos.ts';
import { createPet, presentOnePet } from '../../shared/domain/pets/service.ts';
import { DIRECT_PET_UPLOAD_MAX_BYTES, parsePetUploadForm } from '../../shared/domain/pets/upload-form.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { createdPetBody } from '../../shared/domain/pets/responses.ts';

const limits = {
  maxFileBytes: DIRECT_PET_UPLOAD_MAX_BYTES,
  maxFiles: MAX_PHOTOS_PER_REQUEST,
  maxFields: 15,
  allowedFileFields: ['images'],
};

/** multipart/form-data: the profile fields and zero or more photos in `images`; 201 with the pet and its images. */
export const handler = httpRoute(
  route('pets.create'),
  {
    summary: 'Create a pet (with photos)',
    description: 'multipart/form-data: the profile fields and zero or more photos in `images`.',
    errors: [415, 429],
    form: { parse: parsePetUploadForm, limits, fields: createPetFields },
    response: createdPetBody,
  },
  async ({ form, account }, deps) => {
    const { pet, photos } = await createPet(deps, account, form.fields, form.files);
    const presented = await presentOnePet(deps, pet, undefined);
    return {
      ...presented,
      images: await Promise.all(photos.map((p) => presentPetMedia(deps, p.media, p.duplicate))),
    };
  },
);
