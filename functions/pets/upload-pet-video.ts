import * as z from 'zod/mini';
import { petParams } from '../../shared/domain/pets/params.ts';
import { presentPetMedia } from '../../shared/domain/pets/media.ts';
import { requireOwnPet } from '../../shared/domain/pets/service.ts';
import { DIRECT_PET_UPLOAD_MAX_BYTES, parsePetUploadForm } from '../../shared/domain/pets/upload-form.ts';
import { addPetVideo } from '../../shared/domain/pets/uploads.ts';
import { badRequest } from '../../shared/errors.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { petMediaBody } from '../../shared/domain/pets/responses.ts';

const limits = { maxFileBytes: DIRECT_PET_UPLOAD_MAX_BYTES, maxFiles: 1, maxFields: 0, allowedFileFields: ['file'] };

/** multipart/form-data, one video in `file`: the pet image record (kind video), processed asynchronously. */
export const handler = httpRoute(
  route('pets.video-upload'),
  {
    summary: 'Add a video to a pet',
    description:
      'multipart/form-data, one video in `file` (MP4, MOV, WebM, AVI, MPEG, 3GP; judged by content): processed asynchronously (duration, size, codec, a poster, a metadata-free copy).',
    errors: [415],
    params: petParams,
    form: { parse: parsePetUploadForm, limits, fields: z.strictObject({}) },
    response: petMediaBody,
  },
  async ({ params, form, account }, deps) => {
    const file = form.files[0];
    if (!file) throw badRequest(['file is required (one video)']);
    const pet = await requireOwnPet(deps, account, params.petId);
    return presentPetMedia(deps, await addPetVideo(deps, account, pet, file));
  },
);
