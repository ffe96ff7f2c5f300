// The docs area's routes: part of the route table (functions/routes.ts). Handlers take their entry from here, so
// a function's bundle holds its own area's routes, not the whole table.
import { type RouteDef, routesById } from '../../shared/http/route-def.ts';

export const docsRoutes = [
  // The API reference: this document and a browsable page, assets bundled from npm (docs/openapi.md)
  {
    id: 'docs.openapi',
    method: 'GET',
    path: '/openapi.json',
    entry: 'docs/get-openapi-document',
    auth: 'none',
    access: {},
    status: 200,
    // Served from the package, not compiled into the bundle: the document is most of a megabyte of JavaScript.
    bundledFiles: ['docs/openapi.json'],
  },
  {
    id: 'docs.page',
    method: 'GET',
    path: '/docs',
    entry: 'docs/get-reference-page',
    auth: 'none',
    access: {},
    status: 200,
  },
  {
    id: 'docs.asset',
    method: 'GET',
    path: '/docs/assets/{file}',
    entry: 'docs/get-reference-asset',
    auth: 'none',
    access: {},
    status: 200,
    bundledFiles: [
      'node_modules/swagger-ui-dist/package.json',
      'node_modules/swagger-ui-dist/swagger-ui-bundle.js',
      'node_modules/swagger-ui-dist/swagger-ui.css',
    ],
  },
  // The web console: one page and its built files (docs/console.md), working only through this API
  {
    id: 'docs.console',
    method: 'GET',
    path: '/console',
    entry: 'docs/get-console-page',
    auth: 'none',
    access: {},
    status: 200,
    bundledFiles: ['console/dist'],
  },
  {
    id: 'docs.consoleAsset',
    method: 'GET',
    path: '/console/assets/{file}',
    entry: 'docs/get-console-asset',
    auth: 'none',
    access: {},
    status: 200,
    bundledFiles: ['console/dist'],
  },
] as const satisfies readonly RouteDef[];

export const route = routesById(docsRoutes);
