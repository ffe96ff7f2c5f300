// Pieces every screen uses: loading a call's data, running an action, showing an API error or a one-time secret.
import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiFailure } from './api.ts';

export interface Loaded<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
}

/** Runs `load` when the screen opens and on `reload`; the latest answer wins. */
export function useLoad<T>(load: () => Promise<T>, keys: readonly unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: unknown; loading: boolean }>({ loading: true });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let current = true;
    setState((s) => ({ ...s, loading: true }));
    load().then(
      (data) => current && setState({ data, loading: false }),
      (error: unknown) => current && setState({ error, loading: false }),
    );
    return () => {
      current = false;
    };
  }, [...keys, round]);
  const reload = useCallback(() => setRound((r) => r + 1), []);
  return { data: state.data, error: state.error, loading: state.loading, reload };
}

/** One action at a time: `run` disables its button while it runs and keeps the failure to show. */
export function useAction(): { run: (action: () => Promise<void>) => Promise<void>; busy: boolean; error: unknown } {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setError(undefined);
    try {
      await action();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  return { run, busy, error };
}

const clock = (seconds: number) => new Date(Date.now() + seconds * 1000).toLocaleTimeString();

/** The API's error as it sent it: status, code and message; for 429 and 503 when to try again (never automatically). */
export function ErrorNotice({ error }: { error: unknown }) {
  if (error === undefined) return null;
  if (!(error instanceof ApiFailure)) {
    const text = error instanceof Error ? error.message : String(error);
    return (
      <p class="error" role="alert">
        The request did not reach the API: {text}
      </p>
    );
  }
  return (
    <div class="error" role="alert">
      <p>
        <strong>{error.statusCode}</strong>
        {error.code && <code class="code">{error.code}</code>} {error.messages.join(' ')}
      </p>
      {error.retryAfterSeconds !== undefined && (
        <p>
          Try again in {error.retryAfterSeconds} s (after {clock(error.retryAfterSeconds)}); nothing is retried
          automatically.
        </p>
      )}
      {error.requestId && <p class="muted">Request id {error.requestId}</p>}
    </div>
  );
}

/** A load in progress, its failure, or its data. */
export function Show<T>({ loaded, children }: { loaded: Loaded<T>; children: (data: T) => ComponentChildren }) {
  if (loaded.error !== undefined) return <ErrorNotice error={loaded.error} />;
  if (loaded.data === undefined) return <p aria-live="polite">Loading…</p>;
  return <>{children(loaded.data)}</>;
}

/** A secret the API shows once (an API key, a signing secret): shown here once too, until dismissed. */
export function OneTimeSecret({ label, value, onDone }: { label: string; value: string; onDone: () => void }) {
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => field.current?.select(), []);
  return (
    <section class="secret" aria-label={label}>
      <label>
        {label} (shown once: copy it now)
        <input ref={field} readOnly value={value} spellcheck={false} autocomplete="off" />
      </label>
      <button type="button" onClick={onDone}>
        I have copied it
      </button>
    </section>
  );
}

/** A heading that takes focus when its screen opens, so keyboard and screen-reader users land on it. */
export function ScreenTitle({ children }: { children: ComponentChildren }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <h1 ref={heading} tabIndex={-1}>
      {children}
    </h1>
  );
}

export const when = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString() : '–');

/** A titled part of a screen, named by its heading for assistive technology. */
export function Section({ title, children }: { title: string; children: ComponentChildren }) {
  const id = `${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-title`;
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

/** A table with its caption and column headers; the rows are the children. */
export function Table({
  caption,
  columns,
  children,
}: {
  caption: ComponentChildren;
  columns: string[];
  children: ComponentChildren;
}) {
  return (
    <table>
      <caption>{caption}</caption>
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column} scope="col">
              {column}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}

/** Previous and next page of a page-style list. */
function Pager({ page, pages, onPage }: { page: number; pages: number; onPage: (page: number) => void }) {
  return (
    <nav class="actions" aria-label="Pages">
      <button type="button" disabled={page === 0} onClick={() => onPage(page - 1)}>
        Previous page
      </button>
      <button type="button" disabled={page + 1 >= pages} onClick={() => onPage(page + 1)}>
        Next page
      </button>
    </nav>
  );
}

export interface PagePlace {
  total: number;
  page: number;
  pages: number;
}

/** A page-style list of the API (zero-based `page`, total in Pagination-Count) with its pager and empty state. */
export function Paged<T>(props: {
  load: (page: number) => Promise<{ data: T[]; headers: Headers }>;
  pageSize: number;
  empty: string;
  refreshable?: boolean;
  children: (items: T[], place: PagePlace) => ComponentChildren;
}) {
  const [page, setPage] = useState(0);
  const loaded = useLoad(() => props.load(page), [page]);
  return (
    <>
      {props.refreshable && (
        <div class="actions">
          <button type="button" onClick={loaded.reload}>
            Refresh
          </button>
        </div>
      )}
      <Show loaded={loaded}>
        {({ data, headers }) => {
          const total = Number(headers.get('pagination-count') ?? data.length);
          const pages = Math.max(1, Math.ceil(total / props.pageSize));
          if (data.length === 0) return <p class="muted">{props.empty}</p>;
          return (
            <>
              {props.children(data, { total, page, pages })}
              <Pager page={page} pages={pages} onPage={setPage} />
            </>
          );
        }}
      </Show>
    </>
  );
}
