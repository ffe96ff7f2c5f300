// `npm run openapi`: writes docs/openapi.json from the route table, the handlers' contracts and the recorded
// examples, the typed client's types (clients/ts/src/schema.ts) and its idempotent operations
// (clients/ts/src/idempotent-operations.ts) from that document, and the vision model's answer schemas
// (shared/domain/analysis/answer-schemas.json).
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { ANSWER_SCHEMAS_PATH, answerJsonSchemas } from './answer-schemas.ts';
import {
  buildDocument,
  CLIENT_IDEMPOTENT_PATH,
  clientIdempotentOperations,
  clientTypes,
  CLIENT_TYPES_PATH,
  DOCUMENT_PATH,
  loadContracts,
  readExamples,
  ROOT,
} from './document.ts';

const document = buildDocument(await loadContracts(), readExamples());
writeFileSync(DOCUMENT_PATH, `${JSON.stringify(document, null, 2)}\n`);
writeFileSync(CLIENT_TYPES_PATH, await clientTypes(document));
writeFileSync(CLIENT_IDEMPOTENT_PATH, clientIdempotentOperations(document));
const operations = Object.values(document.paths as Record<string, object>).flatMap((p) => Object.keys(p)).length;
console.log(`${relative(ROOT, DOCUMENT_PATH)}: ${operations} operations; ${relative(ROOT, CLIENT_TYPES_PATH)} written`);
writeFileSync(ANSWER_SCHEMAS_PATH, `${JSON.stringify(answerJsonSchemas(), null, 2)}\n`);
console.log(`${relative(ROOT, ANSWER_SCHEMAS_PATH)} written`);
