// `npm run openapi`: writes docs/openapi.json from the route table, the handlers' contracts and the recorded examples.
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { buildDocument, DOCUMENT_PATH, loadContracts, readExamples, ROOT } from './document.ts';

const document = buildDocument(await loadContracts(), readExamples());
writeFileSync(DOCUMENT_PATH, `${JSON.stringify(document, null, 2)}\n`);
const operations = Object.values(document.paths as Record<string, object>).flatMap((p) => Object.keys(p)).length;
console.log(`${relative(ROOT, DOCUMENT_PATH)}: ${operations} operations`);
