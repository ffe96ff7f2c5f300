// The browsable API reference: Swagger UI from the swagger-ui-dist package, served by the API itself (never from a
// CDN), so it works offline locally and from every deployed stage. GET /v1/docs is the page; its script and style
// come from GET /v1/docs/assets/{file}; the page reads GET /v1/openapi.json.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const SWAGGER_UI = 'swagger-ui-dist';

/** Boots Swagger UI on the document next to the page; "Try it out" calls this same API. */
const BOOT_SCRIPT = `window.ui = SwaggerUIBundle({
  url: 'openapi.json',
  dom_id: '#reference',
  deepLinking: true,
  docExpansion: 'list',
  defaultModelsExpandDepth: 0,
  displayOperationId: true,
  filter: true,
  validatorUrl: null,
  tryItOutEnabled: false,
});
`;

export const REFERENCE_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Pet API reference</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="docs/assets/swagger-ui.css">
</head>
<body>
<div id="reference"></div>
<script src="docs/assets/swagger-ui-bundle.js"></script>
<script src="docs/assets/boot.js"></script>
</body>
</html>
`;

/**
 * Only what the page loads: scripts and styles from the page's own origin; inline styles (Swagger UI sets some) and
 * data: images (its icons); requests ("Try it out") to this origin only.
 */
export const REFERENCE_PAGE_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'cache-control': 'public, max-age=300',
  'x-content-type-options': 'nosniff',
};

interface Asset {
  contentType: string;
  read: () => string;
}

const require = createRequire(import.meta.url);
const packageFile = (name: string) => () => readFileSync(require.resolve(`${SWAGGER_UI}/${name}`), 'utf8');

export const REFERENCE_ASSETS: Readonly<Record<string, Asset>> = {
  'swagger-ui-bundle.js': { contentType: 'text/javascript; charset=utf-8', read: packageFile('swagger-ui-bundle.js') },
  'swagger-ui.css': { contentType: 'text/css; charset=utf-8', read: packageFile('swagger-ui.css') },
  'boot.js': { contentType: 'text/javascript; charset=utf-8', read: () => BOOT_SCRIPT },
};

/** Assets change only with a deployment; clients may keep them for an hour. */
export const ASSET_CACHE_CONTROL = 'public, max-age=3600';
