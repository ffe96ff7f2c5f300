// Key builders: the only place that spells entity prefixes. See docs/ARCHITECTURE.md#access-patterns.
import { encodeTime } from 'ulid';

export const accountKey = (accountId: string) => ({ pk: `ACCOUNT#${accountId}`, sk: 'ACCOUNT' });

/** All accounts, newest last: the operator's list (gsi1). */
export const accountListKey = (createdAt: string, accountId: string) => ({
  gsi1pk: 'ACCOUNTS',
  gsi1sk: `${createdAt}#${accountId}`,
});
export const ACCOUNT_LIST_PARTITION = 'ACCOUNTS';

export const apiKeyKey = (keyHash: string) => ({ pk: `APIKEY#${keyHash}`, sk: 'APIKEY' });

/** Sentinel item the readiness probe reads. */
export const healthKey = () => ({ pk: 'HEALTH', sk: 'HEALTH' });

/** Which snapshot version of a reference data set is current. */
export const refPointerKey = (set: string) => ({ pk: `REFDATA#${set}`, sk: 'CURRENT' });
/** The chunks of one snapshot version, in order. */
export const refChunkPartition = (set: string, version: string) => `REFDATA#${set}#${version}`;
export const refChunkKey = (set: string, version: string, index: number) => ({
  pk: refChunkPartition(set, version),
  sk: `CHUNK#${String(index).padStart(4, '0')}`,
});

/** One posting (an image summary at an ordinal) of a catalogue facet, within one index version. */
export const imageFacetPartition = (version: string, facet: string) => `IMGIDX#${version}#${facet}`;
export const imagePostingKey = (version: string, facet: string, ordinal: string) => ({
  pk: imageFacetPartition(version, facet),
  sk: ordinal,
});

/**
 * The public library's tier of the image index (images made public after the catalogue was seeded: approved uploads,
 * imported photos). Per facet, a head item with the live size of each segment and a revision, and segments of at most
 * a fixed number of image summaries (a map by image id). The deploy-time reseed never touches these partitions.
 */
export const publicFacetPartition = (facet: string) => `PUBIDX#${facet}`;
export const publicFacetHeadKey = (facet: string) => ({ pk: publicFacetPartition(facet), sk: 'HEAD' });
export const PUBLIC_SEGMENT_PREFIX = 'SEG#';
export const publicSegmentKey = (facet: string, segment: number) => ({
  pk: publicFacetPartition(facet),
  sk: `${PUBLIC_SEGMENT_PREFIX}${String(segment).padStart(6, '0')}`,
});

/** Per-account counters (votes, favourites, uploads, webhooks) kept by the same transactions that write the items. */
export const accountStatsKey = (accountId: string) => ({ pk: `ACCOUNT#${accountId}`, sk: 'STATS' });
/** Uploads counted against one calendar month's quota (UTC, `2026-11`). */
export const uploadQuotaKey = (accountId: string, month: string) => ({
  pk: `ACCOUNT#${accountId}`,
  sk: `QUOTA#${month}`,
});

/** Any image (catalogue or upload) by id: existence checks and lookups. */
export const imageKey = (imageId: string) => ({ pk: `IMAGE#${imageId}`, sk: 'IMAGE' });
/** Tombstone of an abandoned upload whose quota was given back, so a redelivered TTL removal gives nothing twice. */
export const expiredUploadKey = (imageId: string) => ({ pk: `IMAGE#${imageId}`, sk: 'EXPIRED' });
/** The same for a pet photo or video, outside the pet's partition (deleting the pet must not forget it). */
export const expiredPetMediaKey = (mediaId: string) => ({ pk: `PETMEDIA#${mediaId}`, sk: 'EXPIRED' });

/**
 * Requests to make an upload public live in the image's partition (they go when the image goes); gsi1 finds one by id
 * alone. The image's pending request, at most one, is a marker created with `attribute_not_exists(pk)` and deleted by
 * the decision or the withdrawal in the same transaction; through gsi1 the markers are the administrators' queue.
 */
export const PUBLIC_REQUEST_PREFIX = 'PUBREQ#';
export const publicRequestKey = (imageId: string, requestId: string) => ({
  pk: `IMAGE#${imageId}`,
  sk: `${PUBLIC_REQUEST_PREFIX}${requestId}`,
});
export const publicRequestIdIndex = (requestId: string) => ({
  gsi1pk: `${PUBLIC_REQUEST_PREFIX}${requestId}`,
  gsi1sk: 'PUBREQ',
});
export const pendingPublicRequestKey = (imageId: string) => ({ pk: `IMAGE#${imageId}`, sk: 'PUBREQ_PENDING' });
export const PENDING_PUBLIC_REQUESTS_PARTITION = 'PUBREQS#PENDING';
export const pendingPublicRequestIndex = (createdAt: string, requestId: string) => ({
  gsi1pk: PENDING_PUBLIC_REQUESTS_PARTITION,
  gsi1sk: `${createdAt}#${requestId}`,
});
/** Everything in an image's partition: the image, its public requests and pending marker. */
export const imagePartition = (imageId: string) => `IMAGE#${imageId}`;
/** The sort-key prefix of an image's requests and its pending marker together (deleted with the image). */
export const PUBLIC_REQUEST_ITEMS_PREFIX = 'PUBREQ';

/** Vote ids are numbers from one atomic counter; zero-padded in keys so text order is numeric order. */
export const voteCounterKey = () => ({ pk: 'COUNTER', sk: 'VOTE' });
const voteOrdinal = (voteId: number) => String(voteId).padStart(12, '0');
export const voteKey = (voteId: number) => ({ pk: `VOTE#${voteOrdinal(voteId)}`, sk: 'VOTE' });
export const accountVotesPartition = (accountId: string) => `ACCOUNT#${accountId}#VOTES`;
export const accountVoteIndex = (accountId: string, voteId: number) => ({
  gsi1pk: accountVotesPartition(accountId),
  gsi1sk: `VOTE#${voteOrdinal(voteId)}`,
});

export const favouriteKey = (favouriteId: string) => ({ pk: `FAV#${favouriteId}`, sk: 'FAV' });
export const accountFavouritesPartition = (accountId: string) => `ACCOUNT#${accountId}#FAVS`;
export const accountFavouriteIndex = (accountId: string, favouriteId: string) => ({
  gsi1pk: accountFavouritesPartition(accountId),
  gsi1sk: `FAV#${favouriteId}`,
});

/**
 * What one account's end user (sub_id) did to one image: its latest vote and its live favourite. Image search
 * attaches these with one BatchGetItem per page; favourites use it to stay unique per account, sub_id and image.
 */
export const interactionKey = (accountId: string, subId: string | null, imageId: string) => ({
  pk: `SUBIMG#${accountId}#${subId ?? ''}`,
  sk: `IMAGE#${imageId}`,
});

/** An account's uploads, newest last (gsi1). */
export const accountImagesPartition = (accountId: string) => `ACCOUNT#${accountId}#IMAGES`;
export const accountImageIndex = (accountId: string, imageId: string) => ({
  gsi1pk: accountImagesPartition(accountId),
  gsi1sk: `IMAGE#${imageId}`,
});

/** One account's endpoints (at most five): listing and matching an event to its subscribers is one Query. */
export const accountWebhooksPartition = (accountId: string) => `ACCOUNT#${accountId}#WEBHOOKS`;
export const webhookKey = (accountId: string, webhookId: string) => ({
  pk: accountWebhooksPartition(accountId),
  sk: `WEBHOOK#${webhookId}`,
});

/** An event as webhooks deliver it, kept for 30 days so that retries, tests and redeliveries can rebuild the body. */
export const webhookEventKey = (accountId: string, eventId: string) => ({
  pk: `WHEVENT#${accountId}#${eventId}`,
  sk: 'EVENT',
});

/**
 * One delivery attempt (ids are ULIDs, so sort keys follow time). The base partition holds one event's attempts at one
 * endpoint (has this endpoint ever had this event?); gsi1 holds the endpoint's whole log, newest last.
 */
export const webhookEventAttemptsPartition = (webhookId: string, eventId: string) =>
  `WHDELIVERY#${webhookId}#${eventId}`;
export const webhookAttemptKey = (webhookId: string, eventId: string, attemptId: string) => ({
  pk: webhookEventAttemptsPartition(webhookId, eventId),
  sk: `ATTEMPT#${attemptId}`,
});
export const webhookAttemptsPartition = (webhookId: string) => `WEBHOOK#${webhookId}#DELIVERIES`;
export const webhookAttemptIndex = (webhookId: string, attemptId: string) => ({
  gsi1pk: webhookAttemptsPartition(webhookId),
  gsi1sk: `ATTEMPT#${attemptId}`,
});
/** The times a ULID can hold (ms since 1970, 48 bits): a window beyond them is cut to them. */
const ulidTime = (at: Date) => encodeTime(Math.min(Math.max(at.getTime(), 0), 2 ** 48 - 1), 10);
/** The sort keys of `prefix` + a ULID made from `since` to `until` (a ULID starts with its time in ms). */
const ulidTimeRange = (prefix: string, since: Date, until: Date) => ({
  from: `${prefix}${ulidTime(since)}`,
  to: `${prefix}${ulidTime(until)}${'Z'.repeat(16)}`,
});
/** The gsi1 sort keys of the attempts logged from `since` to `until`. */
export const webhookAttemptTimeRange = (since: Date, until: Date) => ulidTimeRange('ATTEMPT#', since, until);

/** One recovery of an endpoint's failed events (POST /webhooks/{id}/recover), beside the endpoint's other recoveries. */
export const webhookRecoveryKey = (webhookId: string, recoveryId: string) => ({
  pk: `WEBHOOK#${webhookId}#RECOVERIES`,
  sk: `RECOVERY#${recoveryId}`,
});
/** Marks an event of an endpoint as taken by a recovery: written once, under a condition, so no event is sent twice. */
export const webhookRecoveredEventKey = (webhookId: string, eventId: string) => ({
  pk: `WHRECOVERED#${webhookId}#${eventId}`,
  sk: 'RECOVERED',
});

/** Photo-analysis results (one per request signature, also the lock) in the pet's partition: deleted with the pet. */
export const analysisResultKey = (petId: string, type: string, signature: string) => ({
  pk: petPartition(petId),
  sk: `ANALYSIS#${type}#${signature}`,
});
/** The newest result of one analysis type and prompt version (compare_version, personalised tips, weight). */
export const analysisLatestKey = (petId: string, type: string, promptVersion: string) => ({
  pk: petPartition(petId),
  sk: `ANALYSIS_LATEST#${type}#${promptVersion}`,
});

/** A pet: the profile item; its media, photo hashes and upload-rate slots share the partition (one Query each). */
export const petPartition = (petId: string) => `PET#${petId}`;
export const petKey = (petId: string) => ({ pk: petPartition(petId), sk: 'PET' });
/** An account's pets, oldest first (gsi1). */
export const accountPetsPartition = (accountId: string) => `ACCOUNT#${accountId}#PETS`;
export const accountPetIndex = (accountId: string, petId: string) => ({
  gsi1pk: accountPetsPartition(accountId),
  gsi1sk: `PET#${petId}`,
});
/** One photo, video or portrait of a pet (ids are ULIDs, so the partition lists them oldest first). */
export const PET_MEDIA_PREFIX = 'MEDIA#';
export const petMediaKey = (petId: string, mediaId: string) => ({
  pk: petPartition(petId),
  sk: `${PET_MEDIA_PREFIX}${mediaId}`,
});
/** A pet's media of one kind, oldest first (gsi1): a gallery page of one kind reads only that kind. */
export const petMediaKindPartition = (petId: string, kind: string) => `PET#${petId}#MEDIA#${kind}`;
export const petMediaKindIndex = (petId: string, kind: string, mediaId: string) => ({
  gsi1pk: petMediaKindPartition(petId, kind),
  gsi1sk: `${PET_MEDIA_PREFIX}${mediaId}`,
});
/** A photo's SHA-256 on its pet: written with the photo, so equal bytes on one pet are stored once. */
export const petPhotoHashKey = (petId: string, sha256: string) => ({ pk: petPartition(petId), sk: `HASH#${sha256}` });
/** The pet's upload-rate slots (100 per 24 h): a new photo takes a slot whose last use is older than the window. */
export const PET_RATE_SLOT_PREFIX = 'RATE#';
export const petRateSlotKey = (petId: string, slot: number) => ({
  pk: petPartition(petId),
  sk: `${PET_RATE_SLOT_PREFIX}${String(slot).padStart(3, '0')}`,
});

/**
 * A body condition review lives in its pet's partition (it goes when the pet goes); gsi1 finds it by id alone, which
 * is how vets, who do not know the pet, address it.
 */
export const REVIEW_PREFIX = 'REVIEW#';
export const reviewKey = (petId: string, reviewId: string) => ({
  pk: petPartition(petId),
  sk: `${REVIEW_PREFIX}${reviewId}`,
});
export const reviewIdIndex = (reviewId: string) => ({ gsi1pk: `${REVIEW_PREFIX}${reviewId}`, gsi1sk: 'REVIEW' });
/**
 * The pet's pending review, at most one: created with `attribute_not_exists(pk)`, deleted by the decision in the same
 * transaction. gsi1 lists every pet's pending marker, oldest request first: the vets' queue.
 */
export const pendingReviewKey = (petId: string) => ({ pk: petPartition(petId), sk: 'REVIEW_PENDING' });
export const PENDING_REVIEWS_PARTITION = 'REVIEWS#PENDING';
export const pendingReviewIndex = (requestedAt: string, reviewId: string) => ({
  gsi1pk: PENDING_REVIEWS_PARTITION,
  gsi1sk: `${requestedAt}#${reviewId}`,
});
/** A respiratory-rate measurement of a pet (ids are ULIDs, so sort keys follow time): deleted with the pet's partition. */
export const RESPIRATORY_PREFIX = 'RESPIRATORY#';
export const respiratoryRateKey = (petId: string, measurementId: string) => ({
  pk: petPartition(petId),
  sk: `${RESPIRATORY_PREFIX}${measurementId}`,
});

/**
 * The pet's durable record of one result (an analysis answer, a review decision, a respiratory measurement): in the
 * pet's partition without a TTL, so it goes only with the pet. Ids are ULIDs, so a time window is a key range; gsi1
 * holds each type's records apart, so a page of one type is one Query as well.
 */
const PET_RECORD_PREFIX = 'RECORD#';
export const petRecordKey = (petId: string, recordId: string) => ({
  pk: petPartition(petId),
  sk: `${PET_RECORD_PREFIX}${recordId}`,
});
export const petRecordTypePartition = (petId: string, type: string) => `PET#${petId}#RECORDS#${type}`;
export const petRecordTypeIndex = (petId: string, type: string, recordId: string) => ({
  gsi1pk: petRecordTypePartition(petId, type),
  gsi1sk: `${PET_RECORD_PREFIX}${recordId}`,
});
/** The sort keys (on the table and on gsi1 alike) of the records made from `since` to `until`. */
export const petRecordTimeRange = (since: Date, until: Date) => ulidTimeRange(PET_RECORD_PREFIX, since, until);

// The requests table (shared/db/table.ts REQUESTS_TABLE): one string key, `id`.

/** One account's counter of one rate class (writes, models) in one fixed window, named by the window's start (ms). */
export const rateWindowKey = (accountId: string, rateClass: string, windowStartMs: number) => ({
  id: `RATE#${accountId}#${rateClass}#${windowStartMs}`,
});
