// Durable local files, shared by the self-hosted services: whole-file snapshots that survive a crash as
// either the old or the new content, and directory fsyncs. (Service state lives in src/store.)
export { fsyncDir, removeStaleTemporaries, writeFileAtomic } from "./atomicFile.js";
