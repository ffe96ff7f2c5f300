// The images area's routes: part of the route table (functions/routes.ts). Handlers take their entry from here, so
// a function's bundle holds its own area's routes, not the whole table.
import { type RouteDef, routesById } from '../../shared/http/route-def.ts';
import { UPLOAD_MEDIA } from '../../shared/access.ts';

export const imagesRoutes = [
  // Images
  {
    id: 'images.search',
    method: 'GET',
    path: '/images/search',
    entry: 'images/search-images',
    auth: 'apiKey',
    access: { table: 'read' },
    status: 200,
  },
  {
    id: 'images.upload',
    method: 'POST',
    path: '/images/upload',
    entry: 'images/upload-image',
    auth: 'apiKey',
    capability: 'image_uploads',
    access: { table: 'write', media: UPLOAD_MEDIA },
    status: 201,
  },
  {
    id: 'images.create-upload',
    method: 'POST',
    path: '/images/uploads',
    entry: 'images/create-upload',
    auth: 'apiKey',
    capability: 'image_uploads',
    access: { table: 'write', media: UPLOAD_MEDIA },
    status: 201,
  },
  {
    id: 'images.list',
    method: 'GET',
    path: '/images',
    entry: 'images/list-images',
    auth: 'apiKey',
    access: { table: 'read' },
    status: 200,
  },
  {
    id: 'images.get',
    method: 'GET',
    path: '/images/{id}',
    entry: 'images/get-image',
    auth: 'apiKey',
    access: { table: 'read' },
    status: 200,
  },
  {
    id: 'images.delete',
    method: 'DELETE',
    path: '/images/{id}',
    entry: 'images/delete-image',
    auth: 'apiKey',
    access: { table: 'write', media: UPLOAD_MEDIA },
    status: 200,
  },

  // The public library (the real service's public-image requests): an account puts one of its approved uploads
  // forward, administrators approve it with the tags search finds it by (it joins /images/search) or deny it.
  {
    id: 'images.public-request-create',
    method: 'POST',
    path: '/images/{id}/public-requests',
    entry: 'images/create-public-request',
    auth: 'apiKey',
    access: { table: 'write' },
    status: 201,
  },
  {
    id: 'images.public-request-status',
    method: 'GET',
    path: '/images/{id}/public-requests/status',
    entry: 'images/get-public-request-status',
    auth: 'apiKey',
    access: { table: 'read' },
    status: 200,
  },
  {
    id: 'images.public-request-withdraw',
    method: 'DELETE',
    path: '/images/{id}/public-requests',
    entry: 'images/delete-public-request',
    auth: 'apiKey',
    access: { table: 'write' },
    status: 200,
  },
  {
    id: 'images.public-requests-queue',
    method: 'GET',
    path: '/images/public-requests',
    entry: 'images/list-public-requests',
    auth: 'admin',
    access: { table: 'read' },
    status: 200,
  },
  {
    id: 'images.public-request-approve',
    method: 'POST',
    path: '/images/public-requests/{requestId}/approve',
    entry: 'images/approve-public-request',
    auth: 'admin',
    access: { table: 'write' },
    status: 200,
  },
  {
    id: 'images.public-request-deny',
    method: 'POST',
    path: '/images/public-requests/{requestId}/deny',
    entry: 'images/deny-public-request',
    auth: 'admin',
    access: { table: 'write' },
    status: 200,
  },
] as const satisfies readonly RouteDef[];

export const route = routesById(imagesRoutes);
