// The reviews area's routes: part of the route table (functions/routes.ts). Handlers take their entry from here, so
// a function's bundle holds its own area's routes, not the whole table.
import { type RouteDef, routesById } from '../../shared/http/route-def.ts';
import { PET_MEDIA_READ } from '../../shared/access.ts';

export const reviewsRoutes = [
  // Body condition reviews (spec: States and transitions): the owner asks a vet to check the latest body condition
  // result; vets (role `vet`, or administrators) work through the pending queue and complete or reject each review.
  {
    id: 'reviews.request',
    method: 'POST',
    path: '/pets/{petId}/body-condition-score/reviews',
    entry: 'reviews/request-review',
    auth: 'apiKey',
    feature: 'body_condition',
    access: { table: 'write' },
    status: 201,
  },
  {
    id: 'reviews.list-for-pet',
    method: 'GET',
    path: '/pets/{petId}/body-condition-score/reviews',
    entry: 'reviews/list-pet-reviews',
    auth: 'apiKey',
    feature: 'body_condition',
    access: { table: 'read' },
    status: 200,
  },
  {
    id: 'reviews.queue',
    method: 'GET',
    path: '/reviews',
    entry: 'reviews/list-reviews',
    auth: 'vet',
    access: { table: 'read' },
    status: 200,
  },
  {
    id: 'reviews.get',
    method: 'GET',
    path: '/reviews/{id}',
    entry: 'reviews/get-review',
    auth: 'vet',
    access: { table: 'read', media: PET_MEDIA_READ },
    status: 200,
  },
  {
    id: 'reviews.complete',
    method: 'POST',
    path: '/reviews/{id}/complete',
    entry: 'reviews/complete-review',
    auth: 'vet',
    access: { table: 'write' },
    status: 200,
  },
  {
    id: 'reviews.reject',
    method: 'POST',
    path: '/reviews/{id}/reject',
    entry: 'reviews/reject-review',
    auth: 'vet',
    access: { table: 'write' },
    status: 200,
  },
] as const satisfies readonly RouteDef[];

export const route = routesById(reviewsRoutes);
