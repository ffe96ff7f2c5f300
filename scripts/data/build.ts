// `npm run data:build`: derives every committed data set under data/ from ../shared/data (raw sources) and
// data/authored (the project's own writing). Breeds go first: the other sets check their breed ids against them,
// and the image catalogue draws its breeds, colours and categories from them.
import { buildBreedData } from './breeds.ts';
import { buildFacts } from './facts.ts';
import { buildHealthTips, omiaCoverageReport } from './health-tips.ts';
import { buildImageCatalogue } from './images.ts';
import { buildLegislation } from './legislation.ts';
import { buildPhotos } from './photos.ts';

await buildBreedData();
await buildFacts();
const tips = await buildHealthTips();
if (tips.omia) for (const line of omiaCoverageReport(tips.omia)) console.log(line);
await buildLegislation();
await buildImageCatalogue();
console.log(`photos: ${(await buildPhotos()).length} real photos written to data/photos.json`);
console.log('data sets written to data/');
