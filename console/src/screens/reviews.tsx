import { useState } from 'preact/hooks';
import { ApiFailure, type Api, ok, type Schema, withHeaders } from '../api.ts';
import { Gallery, PetFacts } from '../media.tsx';
import { ErrorNotice, Paged, ScreenTitle, Section, Show, Table, useAction, useLoad, when } from '../ui.tsx';

const PAGE_SIZE = 20;

/** Pending reviews of every account, oldest request first (the API's order), a page at a time. */
export function ReviewQueueScreen({ api }: { api: Api }) {
  const load = (page: number) =>
    withHeaders(api.GET('/reviews', { params: { query: { status: 'pending', limit: PAGE_SIZE, page } } }));
  return (
    <>
      <ScreenTitle>Vet reviews</ScreenTitle>
      <Paged load={load} pageSize={PAGE_SIZE} empty="No reviews are waiting." refreshable>
        {(reviews, { total, page, pages }) => (
          <Table
            caption={`${total} pending, oldest first: page ${page + 1} of ${pages}`}
            columns={['Requested', 'Pet', 'Model score', 'Confidence', 'Review']}
          >
            {reviews.map((review) => (
              <tr key={review.id}>
                <td>{when(review.requested_at)}</td>
                <td>
                  {review.pet ? `${review.pet.name} (${review.pet.species_id})` : 'Pet deleted'}
                  <br />
                  <small>
                    <code>{review.pet_id}</code>
                  </small>
                </td>
                <td>
                  {review.analysis.score} ({review.analysis.category})
                </td>
                <td>{percent(review.analysis.confidence)}</td>
                <td>
                  <a href={`#/reviews/${encodeURIComponent(review.id)}`}>
                    Open review of {review.pet?.name ?? review.pet_id}
                  </a>
                </td>
              </tr>
            ))}
          </Table>
        )}
      </Paged>
    </>
  );
}

const percent = (fraction: number) => `${Math.round(fraction * 100)}%`;

type Review = Schema<'BodyConditionReviewForVet'>;

/** A 409 means another vet decided first: said so in words, beside the API's own error. */
function DecisionError({ error }: { error: unknown }) {
  return (
    <>
      {error instanceof ApiFailure && error.statusCode === 409 && (
        <p role="status">This review was already decided, probably by another vet: refresh to see the decision.</p>
      )}
      <ErrorNotice error={error} />
    </>
  );
}

function Decide({ api, review, onDecided }: { api: Api; review: Review; onDecided: (review: Review) => void }) {
  const [score, setScore] = useState('');
  const [notes, setNotes] = useState('');
  const [reason, setReason] = useState('');
  const { run, busy, error } = useAction();
  const params = { path: { id: review.id } };
  const complete = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      const body = { score: Number(score), notes: notes.trim() || null };
      const decided = await ok(api.POST('/reviews/{id}/complete', { params, body }));
      onDecided({ ...review, ...decided });
    });
  };
  const reject = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      const decided = await ok(api.POST('/reviews/{id}/reject', { params, body: { reason: reason.trim() } }));
      onDecided({ ...review, ...decided });
    });
  };
  return (
    <>
      <div class="columns">
        <form onSubmit={complete} aria-label="Complete the review">
          <h3>Complete</h3>
          <label>
            Body condition score (1 to 9)
            <select required value={score} onChange={(e) => setScore(e.currentTarget.value)}>
              <option value="">Choose a score</option>
              {[1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => (
                <option key={n} value={String(n)}>
                  {n}
                </option>
              ))}
            </select>
          </label>
          <label>
            Notes for the owner (optional)
            <textarea rows={4} maxLength={2000} value={notes} onInput={(e) => setNotes(e.currentTarget.value)} />
          </label>
          <button type="submit" disabled={busy}>
            Complete review
          </button>
        </form>
        <form onSubmit={reject} aria-label="Reject the review">
          <h3>Reject</h3>
          <label>
            Reason for the owner
            <textarea
              rows={4}
              required
              maxLength={1000}
              value={reason}
              onInput={(e) => setReason(e.currentTarget.value)}
            />
          </label>
          <button type="submit" class="danger" disabled={busy}>
            Reject review
          </button>
        </form>
      </div>
      <DecisionError error={error} />
    </>
  );
}

/** The model's own words for its score, as text (never as markup), its line breaks kept. */
export function Reasoning({ explanation }: { explanation: string | null }) {
  return (
    <figure class="reasoning">
      <figcaption>The model's reasoning</figcaption>
      {explanation === null ? (
        <p class="muted">Not kept: this review was requested before reviews kept the model's reasoning.</p>
      ) : (
        <blockquote>{explanation}</blockquote>
      )}
    </figure>
  );
}

/** One review: the photos the analysis used, the model's result, the owner's pet facts, and the decision. */
export function ReviewScreen({ api, reviewId }: { api: Api; reviewId: string }) {
  const loaded = useLoad(() => ok(api.GET('/reviews/{id}', { params: { path: { id: reviewId } } })), [reviewId]);
  const [decided, setDecided] = useState<Review>();
  return (
    <>
      <p>
        <a href="#/reviews">All pending reviews</a>
      </p>
      <Show loaded={loaded}>
        {(fetched) => {
          const review = decided ?? fetched;
          const name = review.pet?.name ?? review.pet_id;
          const used = review.photos.filter((p) => review.analysis.image_ids.includes(p.id));
          return (
            <>
              <ScreenTitle>Review of {name}</ScreenTitle>
              <Section title="The analysis">
                <dl class="facts">
                  <dt>Model score</dt>
                  <dd>
                    {review.analysis.score} of 9 ({review.analysis.category})
                  </dd>
                  <dt>Confidence</dt>
                  <dd>{percent(review.analysis.confidence)}</dd>
                  <dt>Prompt version</dt>
                  <dd>{review.analysis.prompt_version}</dd>
                  <dt>Analysed</dt>
                  <dd>{when(review.analysis.created_at)}</dd>
                  <dt>Requested</dt>
                  <dd>{when(review.requested_at)}</dd>
                </dl>
                <Reasoning explanation={review.analysis.explanation} />
                <h3 class="minor">
                  Photos the model saw ({used.length} of {review.analysis.image_ids.length} still on the pet)
                </h3>
                <Gallery label="Analysed photo" items={used} petName={name} />
              </Section>
              <Section title="The pet, as the owner describes it">
                {review.pet ? (
                  <PetFacts pet={{ ...review.pet, breeds: review.pet.breed_ids.join(', ') }} />
                ) : (
                  <p class="muted">The pet has been deleted.</p>
                )}
              </Section>
              <Section title="Decision">
                {review.status === 'pending' ? (
                  <Decide api={api} review={review} onDecided={setDecided} />
                ) : (
                  <p role="status">
                    {review.status === 'completed'
                      ? `Completed: score ${review.score} (${review.category})${review.notes ? `. Notes: ${review.notes}` : ''}`
                      : `Rejected: ${review.reason}`}{' '}
                    ({when(review.decided_at)})
                  </p>
                )}
              </Section>
            </>
          );
        }}
      </Show>
    </>
  );
}
