import { PORTRAIT_STYLE_CATALOGUE } from '../../shared/domain/pets/portraits.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { portraitStyleList } from '../../shared/domain/pets/responses.ts';

/** The styles POST /pets/{petId}/portrait accepts. */
export const handler = httpRoute(
  route('pets.portrait-styles'),
  { summary: 'Portrait styles', response: portraitStyleList },
  async () => PORTRAIT_STYLE_CATALOGUE,
);
