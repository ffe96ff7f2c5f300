// A read of every GET route a new account may call, taken from the route table so that a new route is read too.
// Path parameters come from the catalogue's own answers (the first breed, the first item of the parent list);
// a route whose parent list is empty for a new account (its pets, webhooks, uploads) has nothing to read yet.
import { routes } from '../../functions/routes.ts';
import type { RouteDef } from '../../shared/http/route-def.ts';
import { type Api, brief } from './http.ts';
import type { Suite } from './suite.ts';

type Route = (typeof routes)[number];

/** Routes that refuse to answer without a query parameter, and the query each is read with. */
const REQUIRED_QUERY: Partial<Record<Route['id'], (catalogue: Catalogue) => string>> = {
  'breeds.search': (c) => `q=${encodeURIComponent(c.breed.name)}`,
  'bans.country': (c) => `country=${c.countryCode}`,
};

interface Catalogue {
  breed: { id: string; name: string; species_id: string };
  countryCode: string;
}

/** Parameters named for what they hold; any other one is the id of an item of the list its prefix names. */
const NAMED_PARAMETERS: Record<string, (catalogue: Catalogue) => string> = {
  breedId: (c) => c.breed.id,
  speciesId: (c) => c.breed.species_id,
};

const readableRoutes = (): Route[] =>
  routes.filter(
    (r: RouteDef) =>
      r.method === 'GET' && (r.auth === 'apiKey' || r.auth === 'apiKeyOrBearer') && r.feature === undefined,
  );

export async function readEveryRoute(suite: Suite, api: Api, key: string): Promise<void> {
  let catalogue: Catalogue | undefined;
  const found = await suite.check('read the catalogue', async () => {
    catalogue = await catalogueOf(api, key);
    return `first breed ${catalogue.breed.id}, first country with breed laws ${catalogue.countryCode}`;
  });
  if (!found || !catalogue) return;
  const nothingYet: string[] = [];
  for (const route of readableRoutes()) {
    const path = await filledPath(route.path, api, key, catalogue);
    if (path === undefined) {
      nothingYet.push(route.path);
      continue;
    }
    const query = REQUIRED_QUERY[route.id]?.(catalogue);
    const url = query ? `${path}?${query}` : path;
    await suite.check(`read GET ${route.path}`, async () => {
      const answer = await api('GET', url, { key });
      if (answer.status !== 200)
        throw new Error(`GET ${url}: expected 200, got ${answer.status} ${brief(answer.body)}`);
      return `${url} 200`;
    });
  }
  if (nothingYet.length > 0) suite.note(`not read (a new account has none yet): ${nothingYet.join(', ')}`);
}

async function catalogueOf(api: Api, key: string): Promise<Catalogue> {
  const [breeds, countries] = await Promise.all([
    api('GET', '/breeds?limit=1', { key }),
    api('GET', '/breeds/bans/countries', { key }),
  ]);
  const [breed] = breeds.body as Catalogue['breed'][];
  const [country] = countries.body as { country_code: string }[];
  if (!breed || !country) throw new Error(`the catalogue is empty: /breeds ${brief(breeds.body)}`);
  return { breed, countryCode: country.country_code };
}

/** The path with each parameter filled, or undefined when a parent list has no item to name. */
async function filledPath(template: string, api: Api, key: string, catalogue: Catalogue) {
  let path = template;
  for (const [placeholder, name] of template.matchAll(/\{([^}]+)\}/g)) {
    const prefix = path.slice(0, path.indexOf(placeholder) - 1);
    const value = NAMED_PARAMETERS[name!]?.(catalogue) ?? (await firstIdOf(api, key, prefix));
    if (value === undefined) return undefined;
    path = path.replace(placeholder, encodeURIComponent(value));
  }
  return path;
}

async function firstIdOf(api: Api, key: string, listPath: string): Promise<string | undefined> {
  const answer = await api('GET', listPath, { key });
  const [first] = Array.isArray(answer.body) ? (answer.body as { id?: unknown }[]) : [];
  return first?.id === undefined ? undefined : String(first.id);
}
