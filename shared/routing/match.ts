import type { HttpMethod, RouteDef } from '../http/route-def.ts';

export type RouteMatch<R extends RouteDef> =
  | { kind: 'route'; route: R; pathParameters: Record<string, string> }
  | { kind: 'method-not-allowed'; allowed: HttpMethod[] }
  | { kind: 'not-found' };

interface CompiledRoute<R> {
  route: R;
  segments: { literal?: string; param?: string }[];
}

const splitPath = (path: string): string[] => path.split('/').filter((s) => s.length > 0);

/**
 * Matches request paths against route templates the way API Gateway does: a literal segment
 * beats a `{param}` segment at the same position (`/facts/random` wins over `/facts/{id}`).
 */
export function createRouteMatcher<R extends RouteDef>(routes: readonly R[]) {
  const compiled: CompiledRoute<R>[] = routes.map((route) => ({
    route,
    segments: splitPath(route.path).map((s) => {
      const param = /^\{(\w+)\}$/.exec(s)?.[1];
      return param ? { param } : { literal: s };
    }),
  }));

  // Specificity: compare segment by segment; a literal sorts before a parameter.
  const specificity = (c: CompiledRoute<R>) => c.segments.map((s) => (s.literal !== undefined ? '0' : '1')).join('');
  compiled.sort((a, b) => specificity(a).localeCompare(specificity(b)));

  function matchPath(c: CompiledRoute<R>, parts: string[]): Record<string, string> | undefined {
    if (c.segments.length !== parts.length) return undefined;
    const params: Record<string, string> = {};
    for (const [i, seg] of c.segments.entries()) {
      const part = parts[i]!;
      if (seg.literal !== undefined) {
        if (seg.literal !== part) return undefined;
      } else {
        let value: string;
        try {
          value = decodeURIComponent(part);
        } catch {
          return undefined;
        }
        params[seg.param!] = value;
      }
    }
    return params;
  }

  return function match(method: string, path: string): RouteMatch<R> {
    const parts = splitPath(path);
    const allowed = new Set<HttpMethod>();
    // `compiled` is sorted most specific first, so the first match of the request's method wins,
    // as in API Gateway (`DELETE /pets/portrait-styles` still reaches `DELETE /pets/{petId}`).
    for (const c of compiled) {
      const params = matchPath(c, parts);
      if (!params) continue;
      if (c.route.method === method) return { kind: 'route', route: c.route, pathParameters: params };
      allowed.add(c.route.method);
    }
    return allowed.size > 0 ? { kind: 'method-not-allowed', allowed: [...allowed].sort() } : { kind: 'not-found' };
  };
}
