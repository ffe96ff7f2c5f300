import { useState } from 'preact/hooks';
import { type Api, ok, type Schema, withHeaders } from '../api.ts';
import { ErrorNotice, Paged, ScreenTitle, Section, Show, useAction, useLoad, when } from '../ui.tsx';

const PAGE_SIZE = 10;
/** The API takes at most three breeds, colours and categories per photo. */
const MAX_TAGS = 3;
/** Breeds shown at once under the search field (the species has hundreds). */
const BREEDS_SHOWN = 12;

interface Option {
  id: string;
  label: string;
}

/** Up to MAX_TAGS checkboxes ticked; with `searchable`, a field narrows a long list (ticked ones stay shown). */
function PickMany({
  legend,
  options,
  chosen,
  onChange,
  searchable = false,
}: {
  legend: string;
  options: Option[];
  chosen: string[];
  onChange: (chosen: string[]) => void;
  searchable?: boolean;
}) {
  const [search, setSearch] = useState('');
  const needle = search.trim().toLowerCase();
  const shown = searchable
    ? [
        ...options.filter((o) => chosen.includes(o.id)),
        ...options
          .filter((o) => !chosen.includes(o.id) && needle && o.label.toLowerCase().includes(needle))
          .slice(0, BREEDS_SHOWN),
      ]
    : options;
  const full = chosen.length >= MAX_TAGS;
  return (
    <fieldset>
      <legend>
        {legend} (up to {MAX_TAGS})
      </legend>
      {searchable && (
        <label>
          Find {legend.toLowerCase()}
          <input type="search" value={search} onInput={(e) => setSearch(e.currentTarget.value)} />
        </label>
      )}
      <div class="checks scroll">
        {shown.map((option) => (
          <label key={option.id} class="check">
            <input
              type="checkbox"
              checked={chosen.includes(option.id)}
              disabled={full && !chosen.includes(option.id)}
              onChange={(e) =>
                onChange(e.currentTarget.checked ? [...chosen, option.id] : chosen.filter((id) => id !== option.id))
              }
            />
            {option.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

type Request = Schema<'PublicImageRequest'>;
type Species = 'dog' | 'cat';

/** Species, then breeds of that species, colours of the first breed, categories; all from the reference routes. */
function Approve({ api, request, onDecided }: { api: Api; request: Request; onDecided: (r: Request) => void }) {
  const [species, setSpecies] = useState<Species>('dog');
  const [breeds, setBreeds] = useState<string[]>([]);
  const [colours, setColours] = useState<string[]>([]);
  const [categories, setCategories] = useState<string[]>([]);
  const [message, setMessage] = useState('');
  const breedList = useLoad(
    () => ok(api.GET('/breeds', { params: { query: { species_id: species, limit: 1000 } } })),
    [species],
  );
  const firstBreed = breeds[0];
  const colourList = useLoad(
    async () => (firstBreed ? ok(api.GET('/breeds/{id}/colours', { params: { path: { id: firstBreed } } })) : []),
    [firstBreed],
  );
  const categoryList = useLoad(
    () => ok(api.GET('/categories', { params: { query: { species_id: species, limit: 100 } } })),
    [species],
  );
  const { run, busy, error } = useAction();
  const chooseSpecies = (next: Species) => {
    setSpecies(next);
    setBreeds([]);
    setColours([]);
    setCategories([]);
  };
  const chooseBreeds = (next: string[]) => {
    if (next[0] !== firstBreed) setColours([]);
    setBreeds(next);
  };
  const submit = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      const body = {
        species_id: species,
        breed_ids: breeds,
        colour_ids: colours,
        category_ids: categories.map(Number),
        admin_message: message.trim() || null,
      };
      onDecided(await ok(api.POST('/images/public-requests/{requestId}/approve', { params: path(request), body })));
    });
  };
  return (
    <form onSubmit={submit} aria-label={`Approve request ${request.id}`}>
      <h4>Approve</h4>
      <label>
        Species
        <select value={species} onChange={(e) => chooseSpecies(e.currentTarget.value as Species)}>
          <option value="dog">Dog</option>
          <option value="cat">Cat</option>
        </select>
      </label>
      <Show loaded={breedList}>
        {(list) => (
          <PickMany
            legend="Breeds"
            searchable
            options={list.map((b) => ({ id: b.id, label: b.name }))}
            chosen={breeds}
            onChange={chooseBreeds}
          />
        )}
      </Show>
      {firstBreed ? (
        <Show loaded={colourList}>
          {(list) => (
            <PickMany
              legend="Colours"
              options={list.map((c) => ({ id: c.id, label: `${c.name} (${c.kind})` }))}
              chosen={colours}
              onChange={setColours}
            />
          )}
        </Show>
      ) : (
        <p class="muted">Choose a breed to pick colours.</p>
      )}
      <Show loaded={categoryList}>
        {(list) => (
          <PickMany
            legend="Categories"
            options={list.map((c) => ({ id: String(c.id), label: c.name }))}
            chosen={categories}
            onChange={setCategories}
          />
        )}
      </Show>
      <label>
        Message to the owner (optional)
        <input maxLength={500} value={message} onInput={(e) => setMessage(e.currentTarget.value)} />
      </label>
      <button type="submit" disabled={busy}>
        Approve and publish
      </button>
      <ErrorNotice error={error} />
    </form>
  );
}

const path = (request: Request) => ({ path: { requestId: request.id } });

function Deny({ api, request, onDecided }: { api: Api; request: Request; onDecided: (r: Request) => void }) {
  const [message, setMessage] = useState('');
  const { run, busy, error } = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      const body = { admin_message: message.trim() };
      onDecided(await ok(api.POST('/images/public-requests/{requestId}/deny', { params: path(request), body })));
    });
  };
  return (
    <form onSubmit={submit} aria-label={`Deny request ${request.id}`}>
      <h4>Deny</h4>
      <label>
        Why (sent to the owner)
        <textarea
          rows={3}
          required
          maxLength={500}
          value={message}
          onInput={(e) => setMessage(e.currentTarget.value)}
        />
      </label>
      <button type="submit" class="danger" disabled={busy}>
        Deny
      </button>
      <ErrorNotice error={error} />
    </form>
  );
}

function PublicRequest({ api, request }: { api: Api; request: Request }) {
  const [decided, setDecided] = useState<Request>();
  const label = request.request_message ?? `Image ${request.image_id}`;
  return (
    <li class="card request" aria-label={label}>
      <img class="request-photo" src={request.image_url} alt={`Put forward for the public library: ${label}`} />
      <div>
        <h3>{label}</h3>
        <dl class="facts">
          <dt>Author</dt>
          <dd>{request.author ?? '–'}</dd>
          <dt>Licence</dt>
          <dd>{request.licence}</dd>
          <dt>Account</dt>
          <dd>
            <code>{request.account_id}</code>
          </dd>
          <dt>Asked</dt>
          <dd>{when(request.created_at)}</dd>
        </dl>
        {decided ? (
          <p role="status">
            {decided.status === 'approved' ? 'Approved and published' : 'Denied'}
            {decided.admin_message && `: ${decided.admin_message}`}
          </p>
        ) : (
          <div class="columns">
            <Approve api={api} request={request} onDecided={setDecided} />
            <Deny api={api} request={request} onDecided={setDecided} />
          </div>
        )}
      </div>
    </li>
  );
}

function PublicRequests({ api }: { api: Api }) {
  const load = (page: number) =>
    withHeaders(
      api.GET('/images/public-requests', { params: { query: { status: 'pending', limit: PAGE_SIZE, page } } }),
    );
  return (
    <Paged load={load} pageSize={PAGE_SIZE} empty="No requests are waiting." refreshable>
      {(requests, { total, page, pages }) => (
        <>
          <p>
            {total} pending, oldest first: page {page + 1} of {pages}
          </p>
          <ul class="cards">
            {requests.map((request) => (
              <PublicRequest key={request.id} api={api} request={request} />
            ))}
          </ul>
        </>
      )}
    </Paged>
  );
}

function AccountLookup({ api }: { api: Api }) {
  const [accountId, setAccountId] = useState('');
  const [overview, setOverview] = useState<Schema<'AccountOverview'>>();
  const { run, busy, error } = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    setOverview(undefined);
    void run(async () => {
      const params = { path: { accountId: accountId.trim() } };
      setOverview(await ok(api.GET('/accounts/{accountId}/overview', { params })));
    });
  };
  return (
    <>
      <form onSubmit={submit}>
        <label>
          Account id
          <input required maxLength={100} value={accountId} onInput={(e) => setAccountId(e.currentTarget.value)} />
        </label>
        <button type="submit" disabled={busy}>
          Look up
        </button>
      </form>
      <ErrorNotice error={error} />
      {overview && (
        <dl class="facts" aria-label="Account overview">
          <dt>Name</dt>
          <dd>{overview.account.name}</dd>
          <dt>Role and status</dt>
          <dd>
            {overview.account.role}, {overview.account.status}
          </dd>
          <dt>E-mail</dt>
          <dd>{overview.account.email ?? '–'}</dd>
          <dt>Created</dt>
          <dd>{when(overview.account.created_at)}</dd>
          <dt>Features</dt>
          <dd>{overview.features.join(', ') || '–'}</dd>
          <dt>Capabilities switched off</dt>
          <dd>{overview.disabled_capabilities.join(', ') || 'none'}</dd>
          <dt>Monthly uploads</dt>
          <dd>
            {overview.quota.usage} of {overview.quota.quota} used ({overview.quota.period})
          </dd>
          <dt>Counts</dt>
          <dd>
            {Object.entries(overview.counts)
              .map(([name, count]) => `${count} ${name}`)
              .join(', ')}
          </dd>
        </dl>
      )}
    </>
  );
}

export function AdminScreen({ api }: { api: Api }) {
  return (
    <>
      <ScreenTitle>Administration</ScreenTitle>
      <Section title="Public-image requests">
        <PublicRequests api={api} />
      </Section>
      <Section title="Account lookup">
        <AccountLookup api={api} />
      </Section>
    </>
  );
}
