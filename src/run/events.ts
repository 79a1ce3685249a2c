// How a run tells its caller what it is doing, without writing anywhere itself: lines of log, and the
// progress of each long step as events. `calibkit run` and `calibkit bench` turn them into stderr lines
// and progress bars; a library caller may ignore them or show them its own way. A caller stops a run with
// an AbortSignal, seen between items.
import { RunAbortedError } from "./errors.js";

/** A long step (evidence, ingest, evaluate) starts, advances, and ends. `done` counts finished items. */
export type ProgressEvent =
  | { type: "start"; step: string; total: number }
  | { type: "advance"; step: string; done: number; total: number }
  | { type: "end"; step: string; done: number; total: number; seconds: number };

export interface RunHooks {
  /** One line of what the run did (the split, the model and its access level, the cache, the service). */
  onLog?: (line: string) => void;
  /** The progress of the long steps. */
  onProgress?: (event: ProgressEvent) => void;
  /**
   * Each temporary folder the run makes (the embedded service's data folder, which holds its lock); the run
   * calls the returned function once it removed the folder. `calibkit run` removes them on Ctrl-C.
   */
  onTemporaryFolder?: (path: string) => () => void;
  /**
   * Stops the run at the next item: it rejects with RunAbortedError after closing the model and the service
   * and removing its temporary folders. Evidence rows already computed stay in the cache.
   */
  signal?: AbortSignal;
}

/** One step's progress, as the run's code reports it. */
export interface StepProgress {
  increment(done?: number): void;
  /** Ends the step; returns the seconds it took. */
  stop(): number;
}

/** The hooks with a no-op for each one not given. */
export interface Reporter {
  /** Throws RunAbortedError once the caller's signal is aborted. */
  checkpoint(): void;
  log(line: string): void;
  step(name: string, total: number): StepProgress;
  temporary(path: string): () => void;
}

export function reporterOf(hooks: RunHooks = {}): Reporter {
  const { onLog, onProgress, onTemporaryFolder, signal } = hooks;
  const checkpoint = () => {
    if (signal?.aborted) throw new RunAbortedError(signal.reason);
  };
  return {
    checkpoint,
    log: (line) => onLog?.(line),
    step(step, total) {
      checkpoint();
      const started = performance.now();
      let done = 0;
      const seconds = () => (performance.now() - started) / 1000;
      onProgress?.({ type: "start", step, total });
      return {
        increment(n = 1) {
          done += n;
          onProgress?.({ type: "advance", step, done, total });
          checkpoint();
        },
        stop() {
          const s = seconds();
          onProgress?.({ type: "end", step, done, total, seconds: s });
          return s;
        },
      };
    },
    temporary: (path) => onTemporaryFolder?.(path) ?? (() => undefined),
  };
}
