// The web console: one page over the public API, signed in with the caller's own API key (docs/console.md).
import { render } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { type Api, apiFor } from './api.ts';
import { AccountScreen } from './screens/account.tsx';
import { AdminScreen } from './screens/admin.tsx';
import { PetScreen, PetsScreen } from './screens/pets.tsx';
import { ReviewQueueScreen, ReviewScreen } from './screens/reviews.tsx';
import { SignIn } from './screens/sign-in.tsx';
import { DeliveriesScreen, WebhooksScreen } from './screens/webhooks.tsx';
import { forgetKey, storedKey, storeKey } from './session.ts';
import { useLoad } from './ui.tsx';
import './style.css';

/** The screen named by the location's hash (`#/webhooks/<id>`): the key never goes near the URL. */
function useHashPath(): string[] {
  const read = () => window.location.hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  const [path, setPath] = useState(read);
  useEffect(() => {
    const changed = () => setPath(read());
    window.addEventListener('hashchange', changed);
    return () => window.removeEventListener('hashchange', changed);
  }, []);
  return path;
}

interface Roles {
  vet: boolean;
  admin: boolean;
}

/**
 * What the key may do beyond its own account: the API has no "who am I" route, so the console asks the vet and admin
 * queues for one item each once per key; a 403 hides that screen (the API refuses it anyway).
 */
function useRoles(api: Api) {
  return useLoad(async (): Promise<Roles> => {
    const allowed = async (call: Promise<{ response: Response }>) => (await call).response.ok;
    const one = { params: { query: { limit: 1 } } };
    const [vet, admin] = await Promise.all([
      allowed(api.GET('/reviews', one)),
      allowed(api.GET('/images/public-requests', one)),
    ]);
    return { vet, admin };
  }, [api]);
}

const screensFor = (roles: Roles | undefined) => [
  { hash: 'account', label: 'Account' },
  { hash: 'webhooks', label: 'Webhooks' },
  { hash: 'pets', label: 'Pets' },
  ...(roles?.vet ? [{ hash: 'reviews', label: 'Vet reviews' }] : []),
  ...(roles?.admin ? [{ hash: 'admin', label: 'Administration' }] : []),
];

function Screen({ api, path, onKeyRotated }: { api: Api; path: string[]; onKeyRotated: (key: string) => void }) {
  const [area, id] = path;
  if (area === 'webhooks' && id) return <DeliveriesScreen api={api} webhookId={id} />;
  if (area === 'webhooks') return <WebhooksScreen api={api} />;
  if (area === 'pets' && id) return <PetScreen api={api} petId={id} />;
  if (area === 'pets') return <PetsScreen api={api} />;
  if (area === 'reviews' && id) return <ReviewScreen api={api} reviewId={id} />;
  if (area === 'reviews') return <ReviewQueueScreen api={api} />;
  if (area === 'admin') return <AdminScreen api={api} />;
  return <AccountScreen api={api} onKeyRotated={onKeyRotated} />;
}

function App() {
  const [apiKey, setApiKey] = useState(storedKey);
  const path = useHashPath();
  const signIn = (key: string) => {
    storeKey(key);
    setApiKey(key);
  };
  const signOut = () => {
    forgetKey();
    setApiKey(null);
    window.location.hash = '';
  };
  if (!apiKey) return <SignIn onSignedIn={signIn} />;
  return <SignedIn apiKey={apiKey} path={path} onKeyRotated={signIn} onSignOut={signOut} />;
}

function SignedIn(props: {
  apiKey: string;
  path: string[];
  onKeyRotated: (key: string) => void;
  onSignOut: () => void;
}) {
  const { apiKey, path } = props;
  const api = useMemo(() => apiFor(apiKey), [apiKey]);
  const roles = useRoles(api);
  const current = path[0] ?? 'account';
  return (
    <>
      <header>
        <span class="brand">Pet API console</span>
        <nav aria-label="Screens">
          {screensFor(roles.data).map((s) => (
            <a key={s.hash} href={`#/${s.hash}`} aria-current={current === s.hash ? 'page' : undefined}>
              {s.label}
            </a>
          ))}
        </nav>
        <button type="button" onClick={props.onSignOut}>
          Sign out
        </button>
      </header>
      <main>
        <Screen key={`${apiKey}:${path.join('/')}`} api={api} path={path} onKeyRotated={props.onKeyRotated} />
      </main>
    </>
  );
}

const root = document.getElementById('console');
if (root) render(<App />, root);
