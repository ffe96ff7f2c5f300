// Paging a list route with `for await`: the caller says how to fetch one page (by zero-based `page`, or by `offset`
// for the routes that take one), the iterator asks for pages until the list is exhausted.
import { type CallResult, unwrap } from './errors.ts';

/** Where the next page starts: its zero-based number, and how many items came before it. */
export interface PageRequest {
  page: number;
  offset: number;
}

export interface Page<T> {
  items: T[];
  page: number;
  /** The list's total from the `Pagination-Count` header, on the routes that send it. */
  total: number | undefined;
}

/**
 * Pages until one comes back empty, shorter than the longest before it (the last one), or the total of
 * `Pagination-Count` is reached. Paging needs a stable order: leave `order` ASC or DESC, never RANDOM.
 * A failed page throws PetApiError.
 */
export async function* pages<T>(fetchPage: (at: PageRequest) => Promise<CallResult<T[]>>): AsyncGenerator<Page<T>> {
  let offset = 0;
  let pageSize = 0;
  for (let page = 0; ; page += 1) {
    const call = await fetchPage({ page, offset });
    const items = await unwrap(call);
    const header = call.response.headers.get('pagination-count');
    const total = header === null ? undefined : Number(header);
    if (items.length === 0) return;
    yield { items, page, total };
    offset += items.length;
    pageSize = Math.max(pageSize, items.length);
    if (items.length < pageSize || (total !== undefined && offset >= total)) return;
  }
}

/** Every item of every page, in order: `for await (const breed of items((p) => api.GET('/breeds', …)))`. */
export async function* items<T>(fetchPage: (at: PageRequest) => Promise<CallResult<T[]>>): AsyncGenerator<T> {
  for await (const page of pages(fetchPage)) yield* page.items;
}
