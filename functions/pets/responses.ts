// What the pets routes answer, by route id: read only by the OpenAPI generator (functions/responses.ts joins the
// areas). Handlers see these schemas as types, through `route` (./routes.ts), so no function bundles them.
import * as z from 'zod/mini';
import {
  createdPetBody,
  petBody,
  petMediaBody,
  petUploadSlotBody,
  portraitStyleList,
} from '../../shared/domain/pets/responses.ts';
import { emptyBody } from '../../shared/http/api-docs.ts';
import type { ResponseSchemas } from '../../shared/http/route-def.ts';
import type { petsRoutes } from './routes.ts';

export const petsResponses = {
  'pets.create': createdPetBody,
  'pets.list': z.array(petBody),
  'pets.get': petBody,
  'pets.update': petBody,
  'pets.delete': emptyBody,
  'pets.photos-upload': z.array(petMediaBody),
  'pets.video-upload': petMediaBody,
  'pets.media-list': z.array(petMediaBody),
  'pets.media-get': petMediaBody,
  'pets.media-delete': emptyBody,
  'pets.create-upload': petUploadSlotBody,
  'pets.complete-upload': petMediaBody,
  'pets.portrait-styles': portraitStyleList,
  'pets.portrait-create': petMediaBody,
  'pets.portraits-list': z.array(petMediaBody),
} satisfies ResponseSchemas<typeof petsRoutes>;
