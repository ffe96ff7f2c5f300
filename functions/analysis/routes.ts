// The analysis area's routes: part of the route table (functions/routes.ts). Handlers take their entry from here, so
// a function's bundle holds its own area's routes, not the whole table.
import { type RouteDef, routesById } from '../../shared/http/route-def.ts';
import { PET_MEDIA_READ } from '../../shared/access.ts';

export const analysisRoutes = [
  // Pet photo analysis (cached per request signature in the pet's partition; docs/analysis.md)
  {
    id: 'analysis.body-condition-score',
    method: 'POST',
    path: '/pets/{petId}/body-condition-score',
    entry: 'analysis/create-body-condition-score',
    auth: 'apiKey',
    feature: 'body_condition',
    access: { table: 'write', media: PET_MEDIA_READ, visionModel: 'invoke' },
    status: 200,
  },
  {
    id: 'analysis.estimated-age',
    method: 'POST',
    path: '/pets/{petId}/estimated-age',
    entry: 'analysis/create-age-estimate',
    auth: 'apiKey',
    access: { table: 'write', media: PET_MEDIA_READ, visionModel: 'invoke' },
    status: 200,
  },
  {
    id: 'analysis.genealogy',
    method: 'POST',
    path: '/pets/{petId}/genealogy',
    entry: 'analysis/create-genealogy',
    auth: 'apiKey',
    access: { table: 'write', media: PET_MEDIA_READ, visionModel: 'invoke' },
    status: 200,
  },
  {
    id: 'analysis.muscle-condition-score',
    method: 'POST',
    path: '/pets/{petId}/muscle-condition-score',
    entry: 'analysis/create-muscle-condition-score',
    auth: 'apiKey',
    access: { table: 'write', media: PET_MEDIA_READ, visionModel: 'invoke' },
    status: 200,
  },
  {
    id: 'analysis.estimated-weight',
    method: 'POST',
    path: '/pets/{petId}/estimated-weight',
    entry: 'analysis/create-weight-estimate',
    auth: 'apiKey',
    access: { table: 'write', media: PET_MEDIA_READ, visionModel: 'invoke' },
    status: 201,
  },
  {
    id: 'analysis.health-tips',
    method: 'GET',
    path: '/pets/{petId}/health-tips',
    entry: 'analysis/get-pet-health-tips',
    auth: 'apiKey',
    access: { table: 'write', media: PET_MEDIA_READ, visionModel: 'invoke' },
    status: 200,
  },
] as const satisfies readonly RouteDef[];

export const respiratoryRateRoutes = [
  // Respiratory rate (early access, account feature `respiratory_rate`): measured from a video on the async side
  {
    id: 'analysis.respiratory-rate-create',
    method: 'POST',
    path: '/pets/{petId}/respiratory-rate',
    entry: 'analysis/create-respiratory-rate',
    auth: 'apiKey',
    feature: 'respiratory_rate',
    access: { table: 'write' },
    status: 202,
  },
  {
    id: 'analysis.respiratory-rate-list',
    method: 'GET',
    path: '/pets/{petId}/respiratory-rate',
    entry: 'analysis/list-respiratory-rates',
    auth: 'apiKey',
    feature: 'respiratory_rate',
    access: { table: 'read' },
    status: 200,
  },
  {
    id: 'analysis.respiratory-rate-get',
    method: 'GET',
    path: '/pets/{petId}/respiratory-rate/{measurementId}',
    entry: 'analysis/get-respiratory-rate',
    auth: 'apiKey',
    feature: 'respiratory_rate',
    access: { table: 'read' },
    status: 200,
  },
] as const satisfies readonly RouteDef[];

export const route = routesById([...analysisRoutes, ...respiratoryRateRoutes]);
