// How every Lambda function is bundled: used by the CDK app and by `npm run bench`, so both measure the same bytes.
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
