// Durable local files, shared by the self-hosted services: whole-file snapshots that survive a crash as
// either the old or the new content, directory fsyncs, and one process per data folder.
export { fsyncDir, removeStaleTemporaries, writeFileAtomic } from "./atomicFile.js";
export { DataDirLockedError, lockDataDir, type DataDirLock } from "./dataDirLock.js";
