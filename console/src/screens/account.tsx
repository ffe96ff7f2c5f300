import { useState } from 'preact/hooks';
import { type Api, ok, type Schema } from '../api.ts';
import { ErrorNotice, OneTimeSecret, ScreenTitle, Section, Show, Table, useAction, useLoad, when } from '../ui.tsx';

type Window = Schema<'OwnQuota'>['rate_limits']['writes'];

function RateWindow({ name, window }: { name: string; window: Window }) {
  return (
    <tr>
      <th scope="row">{name}</th>
      <td>{window.limit}</td>
      <td>{window.window_seconds} s</td>
      <td>{window.used}</td>
      <td>{window.remaining}</td>
      <td>{when(window.resets_at)}</td>
    </tr>
  );
}

function Usage({ quota }: { quota: Schema<'OwnQuota'> }) {
  return (
    <>
      <dl class="facts">
        <dt>Monthly uploads</dt>
        <dd>
          {quota.usage} of {quota.quota} used, {quota.remaining} left ({quota.period})
        </dd>
        <dt>Resets</dt>
        <dd>{when(quota.resets_at)}</dd>
        <dt>Plan</dt>
        <dd>{quota.rate_limits.plan}</dd>
      </dl>
      <Table caption="Request rate limits" columns={['Class', 'Limit', 'Window', 'Used', 'Remaining', 'Resets']}>
        <RateWindow name="Writes" window={quota.rate_limits.writes} />
        <RateWindow name="Model calls" window={quota.rate_limits.models} />
      </Table>
    </>
  );
}

/** Rotation keeps the old key working for the grace period; the console switches to the new key at once. */
function RotateKey({ api, onKeyRotated }: { api: Api; onKeyRotated: (key: string) => void }) {
  const [grace, setGrace] = useState('3600');
  const [rotated, setRotated] = useState<Schema<'RotatedApiKey'>>();
  const { run, busy, error } = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      const body = { grace_period_seconds: Number(grace) };
      setRotated(await ok(api.POST('/accounts/api-key/rotate', { body })));
    });
  };
  if (rotated) {
    return (
      <>
        <p>The previous key works until {when(rotated.previous_key_expires_at)}.</p>
        <OneTimeSecret label="New API key" value={rotated.api_key} onDone={() => onKeyRotated(rotated.api_key)} />
      </>
    );
  }
  return (
    <form onSubmit={submit}>
      <label>
        Grace period for the current key (seconds, 0 to 86400)
        <input
          type="number"
          min={0}
          max={86400}
          required
          value={grace}
          onInput={(e) => setGrace(e.currentTarget.value)}
        />
      </label>
      <button type="submit" disabled={busy}>
        Rotate API key
      </button>
      <ErrorNotice error={error} />
    </form>
  );
}

export function AccountScreen({ api, onKeyRotated }: { api: Api; onKeyRotated: (key: string) => void }) {
  const features = useLoad(() => ok(api.GET('/accounts/features')), []);
  const capabilities = useLoad(() => ok(api.GET('/accounts/capabilities')), []);
  const quota = useLoad(() => ok(api.GET('/accounts/quota')), []);
  return (
    <>
      <ScreenTitle>Account</ScreenTitle>
      <Section title="Features and capabilities">
        <div class="columns">
          <Show loaded={features}>{(list) => <TagList label="Features" items={list} empty="No features" />}</Show>
          <Show loaded={capabilities}>
            {(list) => <TagList label="Capabilities switched off" items={list} empty="None: every capability is on" />}
          </Show>
        </div>
      </Section>
      <Section title="Quota, usage and rate limits">
        <Show loaded={quota}>{(q) => <Usage quota={q} />}</Show>
        <button type="button" onClick={quota.reload}>
          Refresh usage
        </button>
      </Section>
      <Section title="API key">
        <RotateKey api={api} onKeyRotated={onKeyRotated} />
      </Section>
    </>
  );
}

function TagList({ label, items, empty }: { label: string; items: string[]; empty: string }) {
  return (
    <div>
      <h3>{label}</h3>
      {items.length === 0 ? (
        <p class="muted">{empty}</p>
      ) : (
        <ul class="tags" aria-label={label}>
          {items.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
