// The web console: one page over the public API, signed in with the caller's own API key (docs/console.md).
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { type Api, apiFor } from './api.ts';
import { AccountScreen } from './screens/account.tsx';
import { PetScreen, PetsScreen } from './screens/pets.tsx';
import { SignIn } from './screens/sign-in.tsx';
import { DeliveriesScreen, WebhooksScreen } from './screens/webhooks.tsx';
import { forgetKey, storedKey, storeKey } from './session.ts';
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

const SCREENS = [
  { hash: 'account', label: 'Account' },
  { hash: 'webhooks', label: 'Webhooks' },
  { hash: 'pets', label: 'Pets' },
];

function Screen({ api, path, onKeyRotated }: { api: Api; path: string[]; onKeyRotated: (key: string) => void }) {
  const [area, id] = path;
  if (area === 'webhooks' && id) return <DeliveriesScreen api={api} webhookId={id} />;
  if (area === 'webhooks') return <WebhooksScreen api={api} />;
  if (area === 'pets' && id) return <PetScreen api={api} petId={id} />;
  if (area === 'pets') return <PetsScreen api={api} />;
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
  const current = path[0] ?? 'account';
  return (
    <>
      <header>
        <span class="brand">Pet API console</span>
        <nav aria-label="Screens">
          {SCREENS.map((s) => (
            <a key={s.hash} href={`#/${s.hash}`} aria-current={current === s.hash ? 'page' : undefined}>
              {s.label}
            </a>
          ))}
        </nav>
        <button type="button" onClick={signOut}>
          Sign out
        </button>
      </header>
      <main>
        <Screen key={`${apiKey}:${path.join('/')}`} api={apiFor(apiKey)} path={path} onKeyRotated={signIn} />
      </main>
    </>
  );
}

const root = document.getElementById('console');
if (root) render(<App />, root);
