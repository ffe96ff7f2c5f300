// How every Lambda function is bundled: used by the CDK app and by `npm run bench`, so both measure the same bytes.

/**
 * Provided by the observability layer (infra/constructs/observability-layer.ts) instead of each bundle: Powertools
 * and the X-Ray SDK would add 160 KB to every function (infra tests and `npm run bench` say what they cost).
 */
export const OBSERVABILITY_PACKAGES = [
  '@aws-lambda-powertools/logger',
  '@aws-lambda-powertools/metrics',
  '@aws-lambda-powertools/tracer',
] as const;

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
