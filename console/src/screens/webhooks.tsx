import { useState } from 'preact/hooks';
import { type Api, ok, type Schema, withHeaders } from '../api.ts';
import { ErrorNotice, OneTimeSecret, ScreenTitle, Section, Show, Table, useAction, useLoad, when } from '../ui.tsx';

type Webhook = Schema<'Webhook'>;

/** URL, description and an event picker fed by GET /webhooks/topics; the signing secret is shown once. */
function CreateEndpoint({ api, onCreated }: { api: Api; onCreated: () => void }) {
  const topics = useLoad(() => ok(api.GET('/webhooks/topics')), []);
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<string[]>([]);
  const [secret, setSecret] = useState<string>();
  const { run, busy, error } = useAction();
  const toggle = (name: string, on: boolean) =>
    setEvents((current) => (on ? [...current, name] : current.filter((e) => e !== name)));
  const submit = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      const body = { url: url.trim(), description, enabled_events: events };
      const created = await ok(api.POST('/webhooks', { body }));
      setSecret(created.signing_secret);
      setUrl('');
      setDescription('');
      setEvents([]);
      onCreated();
    });
  };
  if (secret) return <OneTimeSecret label="Signing secret" value={secret} onDone={() => setSecret(undefined)} />;
  return (
    <form onSubmit={submit}>
      <label>
        Endpoint URL
        <input type="url" required maxLength={2048} value={url} onInput={(e) => setUrl(e.currentTarget.value)} />
      </label>
      <label>
        Description (optional)
        <input value={description} maxLength={500} onInput={(e) => setDescription(e.currentTarget.value)} />
      </label>
      <fieldset>
        <legend>Events to send</legend>
        <Show loaded={topics}>
          {(list) => (
            <div class="checks">
              {list.map((topic) => (
                <label key={topic.name} class="check">
                  <input
                    type="checkbox"
                    checked={events.includes(topic.name)}
                    onChange={(e) => toggle(topic.name, e.currentTarget.checked)}
                  />
                  <span>
                    <code>{topic.name}</code> <span class="muted">{topic.description}</span>
                  </span>
                </label>
              ))}
            </div>
          )}
        </Show>
      </fieldset>
      <button type="submit" disabled={busy || events.length === 0}>
        Create endpoint
      </button>
      <ErrorNotice error={error} />
    </form>
  );
}

/** Test, rotate secret and delete (asked twice); each answer or failure is shown beside the endpoint. */
function Endpoint({ api, webhook, onDeleted }: { api: Api; webhook: Webhook; onDeleted: () => void }) {
  const [notice, setNotice] = useState<string>();
  const [secret, setSecret] = useState<string>();
  const [confirming, setConfirming] = useState(false);
  const { run, busy, error } = useAction();
  const params = { path: { id: webhook.id } };
  const sendTest = () =>
    run(async () => {
      const queued = await ok(api.POST('/webhooks/{id}/test', { params }));
      setNotice(`Test event ${queued.event_id} queued.`);
    });
  const rotate = () =>
    run(async () => setSecret((await ok(api.POST('/webhooks/{id}/rotate-secret', { params }))).signing_secret));
  const remove = () =>
    run(async () => {
      await ok(api.DELETE('/webhooks/{id}', { params }));
      onDeleted();
    });
  return (
    <li class="card" aria-label={webhook.url}>
      <h3>
        <a href={`#/webhooks/${encodeURIComponent(webhook.id)}`}>{webhook.url}</a>
      </h3>
      {webhook.description && <p>{webhook.description}</p>}
      <dl class="facts">
        <dt>Status</dt>
        <dd>
          {webhook.status}
          {webhook.disabled_reason && ` (${webhook.disabled_reason})`}
        </dd>
        <dt>Events</dt>
        <dd>{webhook.enabled_events.join(', ')}</dd>
        <dt>Failures in a row</dt>
        <dd>{webhook.consecutive_failures}</dd>
        <dt>Created</dt>
        <dd>{when(webhook.created_at)}</dd>
      </dl>
      <div class="actions">
        <a class="button" href={`#/webhooks/${encodeURIComponent(webhook.id)}`}>
          Delivery log
        </a>
        <button type="button" disabled={busy} onClick={sendTest}>
          Send test event
        </button>
        <button type="button" disabled={busy} onClick={rotate}>
          Rotate signing secret
        </button>
        {confirming ? (
          <>
            <button type="button" class="danger" disabled={busy} onClick={remove}>
              Confirm: delete endpoint
            </button>
            <button type="button" onClick={() => setConfirming(false)}>
              Keep it
            </button>
          </>
        ) : (
          <button type="button" onClick={() => setConfirming(true)}>
            Delete
          </button>
        )}
      </div>
      {notice && <p role="status">{notice}</p>}
      {secret && <OneTimeSecret label="New signing secret" value={secret} onDone={() => setSecret(undefined)} />}
      <ErrorNotice error={error} />
    </li>
  );
}

export function WebhooksScreen({ api }: { api: Api }) {
  const endpoints = useLoad(() => ok(api.GET('/webhooks')), []);
  return (
    <>
      <ScreenTitle>Webhooks</ScreenTitle>
      <Section title="Endpoints">
        <Show loaded={endpoints}>
          {(list) =>
            list.length === 0 ? (
              <p class="muted">No endpoints yet.</p>
            ) : (
              <ul class="cards">
                {list.map((webhook) => (
                  <Endpoint key={webhook.id} api={api} webhook={webhook} onDeleted={endpoints.reload} />
                ))}
              </ul>
            )
          }
        </Show>
      </Section>
      <Section title="New endpoint">
        <CreateEndpoint api={api} onCreated={endpoints.reload} />
      </Section>
    </>
  );
}

type Attempt = Schema<'DeliveryAttempt'>;

function AttemptRow({ attempt, onRedeliver, busy }: { attempt: Attempt; onRedeliver: () => void; busy: boolean }) {
  const outcome = attempt.status_code ?? attempt.error ?? 'no answer';
  return (
    <tr>
      <td>{when(attempt.attempted_at)}</td>
      <td>
        <code>{attempt.event_type}</code>
        <div class="muted">{attempt.event_id}</div>
      </td>
      <td>{attempt.attempt}</td>
      <td class={attempt.succeeded ? 'good' : 'bad'}>
        {attempt.succeeded ? 'delivered' : 'failed'} ({outcome})
      </td>
      <td>{Math.round(attempt.duration_ms)} ms</td>
      <td>
        {attempt.response?.body ? (
          <details>
            <summary>{attempt.response.body.slice(0, 40)}</summary>
            <pre>{attempt.response.body}</pre>
            {attempt.response.body_truncated && <p class="muted">Cut at 4 KiB.</p>}
          </details>
        ) : (
          <span class="muted">{attempt.response?.body_binary ? 'binary reply' : '–'}</span>
        )}
      </td>
      <td>
        <button type="button" disabled={busy} onClick={onRedeliver} aria-label={`Redeliver ${attempt.event_id}`}>
          Redeliver
        </button>
      </td>
    </tr>
  );
}

/** The endpoint's delivery attempts, newest first, paged by the API's Next-Cursor; redelivery per event. */
export function DeliveriesScreen({ api, webhookId }: { api: Api; webhookId: string }) {
  const params = { path: { id: webhookId } };
  const webhook = useLoad(() => ok(api.GET('/webhooks/{id}', { params })), [webhookId]);
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors.at(-1);
  const page = useLoad(
    () =>
      withHeaders(
        api.GET('/webhooks/{id}/deliveries', {
          params: { ...params, query: { limit: 25, ...(cursor && { cursor }) } },
        }),
      ),
    [webhookId, cursor],
  );
  const [notice, setNotice] = useState<string>();
  const { run, busy, error } = useAction();
  const redeliver = (eventId: string) =>
    run(async () => {
      const path = { id: webhookId, eventId };
      const queued = await ok(api.POST('/webhooks/{id}/deliveries/{eventId}/redeliver', { params: { path } }));
      setNotice(`Event ${queued.event_id} queued again.`);
    });
  const sendTest = () =>
    run(async () => {
      const queued = await ok(api.POST('/webhooks/{id}/test', { params }));
      setNotice(`Test event ${queued.event_id} queued; refresh to see its delivery.`);
    });
  return (
    <>
      <ScreenTitle>Delivery log</ScreenTitle>
      <p>
        <a href="#/webhooks">All endpoints</a>
      </p>
      <Show loaded={webhook}>
        {(w) => (
          <p>
            <strong>{w.url}</strong> ({w.status})
          </p>
        )}
      </Show>
      <div class="actions">
        <button type="button" onClick={page.reload} disabled={page.loading}>
          Refresh
        </button>
        <button type="button" onClick={sendTest} disabled={busy}>
          Send test event
        </button>
        {cursors.length > 0 && (
          <button type="button" onClick={() => setCursors([])}>
            Newest
          </button>
        )}
      </div>
      {notice && <p role="status">{notice}</p>}
      <ErrorNotice error={error} />
      <Show loaded={page}>
        {({ data, headers }) => {
          const next = headers.get('next-cursor');
          return (
            <>
              {data.length === 0 ? (
                <p class="muted">No delivery attempts yet.</p>
              ) : (
                <Table
                  caption="Delivery attempts, newest first"
                  columns={['Time', 'Event', 'Attempt', 'Status', 'Duration', 'Response', 'Action']}
                >
                  {data.map((attempt) => (
                    <AttemptRow
                      key={attempt.id}
                      attempt={attempt}
                      busy={busy}
                      onRedeliver={() => redeliver(attempt.event_id)}
                    />
                  ))}
                </Table>
              )}
              {next && (
                <button type="button" onClick={() => setCursors((c) => [...c, next])}>
                  Older attempts
                </button>
              )}
            </>
          );
        }}
      </Show>
    </>
  );
}
