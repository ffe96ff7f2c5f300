import { useState } from 'preact/hooks';
import { apiFor, ok } from '../api.ts';
import { ErrorNotice, ScreenTitle, useAction } from '../ui.tsx';

/** The key is checked against GET /accounts/features before it is kept; a refused key is shown and forgotten. */
export function SignIn({ onSignedIn }: { onSignedIn: (apiKey: string) => void }) {
  const [key, setKey] = useState('');
  const { run, busy, error } = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    const apiKey = key.trim();
    void run(async () => {
      await ok(apiFor(apiKey).GET('/accounts/features'));
      onSignedIn(apiKey);
    });
  };
  return (
    <main class="sign-in">
      <ScreenTitle>Pet API console</ScreenTitle>
      <p>Sign in with your account's API key. It stays in this tab only and is forgotten when you sign out.</p>
      <form onSubmit={submit}>
        <label>
          API key
          <input
            type="password"
            name="api-key"
            autocomplete="off"
            required
            value={key}
            onInput={(e) => setKey(e.currentTarget.value)}
          />
        </label>
        <button type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
      <ErrorNotice error={error} />
    </main>
  );
}
