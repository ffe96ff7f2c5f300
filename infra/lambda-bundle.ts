// How every Lambda function is bundled: used by the CDK app and by `npm run bench`, so both measure the same bytes.
import type { RouteDef } from '../shared/http/route-def.ts';

/**
 * Provided by the Powertools layer (infra/constructs/powertools-layer.ts) instead of each bundle, with the subpaths
 * the code imports: Logger, Metrics and Tracer with the X-Ray SDK (160 KB a function). Each is bundled whole, its
 * share of Powertools' commons included. `npm run bench` reports what the layer weighs and loads its modules in every
 * import it times.
 */
export const POWERTOOLS_LAYER_PACKAGES = {
  '@aws-lambda-powertools/logger': ['.'],
  '@aws-lambda-powertools/metrics': ['.'],
  '@aws-lambda-powertools/tracer': ['.'],
} as const satisfies Record<string, readonly `.${string}`[]>;

export type PowertoolsLayerPackage = keyof typeof POWERTOOLS_LAYER_PACKAGES;

export const POWERTOOLS_LAYER_MODULES = Object.keys(POWERTOOLS_LAYER_PACKAGES) as PowertoolsLayerPackage[];

/** Modules a route's function takes from a layer of its own: photos for the vision model are downscaled with sharp. */
export function routeExternalModules(route: RouteDef): string[] {
  return route.access.visionModel ? ['sharp'] : [];
}

export const LAMBDA_BUNDLE = {
  target: 'node22',
  format: 'esm',
  minify: true,
  sourceMap: true,
  sourcesContent: false,
  mainFields: ['module', 'main'],
  // ESM output still meets CommonJS inside some dependencies; give them a require().
  banner: "import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);",
} as const;
