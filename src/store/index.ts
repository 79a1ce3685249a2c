// The storage of both services (DESIGN.md: store may import api only): one interface, two engines —
// SQLite embedded (the default, a file in the data folder) and PostgreSQL for many instances. docs/storage.md.
export { openStore, isPostgresUrl, SQLITE_FILE, type Store, type StoreOptions } from "./store.js";
export { StoreUnavailableError, classifyStoreError } from "./errors.js";
export { IdempotencyKeyTaken, type ProfileEvent, type StoredProfile, type NewEvent } from "./profiles.js";
export type { StoredJob } from "./jobs.js";
export type { LeaseHolder } from "./leases.js";
export type { HumanQueueRow } from "./humanQueue.js";
export type { MailAccept, MailStateChange, StoredMessage } from "./mail.js";
export {
  EvidenceCache, EVIDENCE_CACHE_FILE, type EvidenceCacheEntry, type EvidenceCacheGroup, type EvidenceKey, type PruneFilter,
} from "./evidenceCache.js";
