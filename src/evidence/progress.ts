// Progress for long dataset runs: a cli-progress bar when stderr is a terminal, otherwise a line every few
// seconds (CI logs and pipes would fill with bar redraws).
import cliProgress from "cli-progress";

export type ProgressMode = "auto" | "bar" | "lines" | "none";

export interface Progress {
  /** One more item done; `elapsedMs` since the start. */
  tick(elapsedMs: number): void;
  stop(): void;
}

const LINE_EVERY_MS = 5000;

export function createProgress(total: number, mode: ProgressMode, stream: NodeJS.WriteStream = process.stderr): Progress {
  const chosen = mode === "auto" ? (stream.isTTY ? "bar" : "lines") : mode;
  let done = 0;
  if (chosen === "none") return { tick: () => void done++, stop: () => undefined };
  if (chosen === "bar") {
    const bar = new cliProgress.SingleBar(
      { stream, format: "evidence {bar} {value}/{total} examples | {rate} ex/s | eta {eta}s", hideCursor: true },
      cliProgress.Presets.shades_classic,
    );
    bar.start(total, 0, { rate: "0.0" });
    return {
      tick(elapsedMs) {
        done++;
        bar.update(done, { rate: (done / Math.max(elapsedMs / 1000, 1e-9)).toFixed(1) });
      },
      stop: () => bar.stop(),
    };
  }
  let lastLine = 0;
  return {
    tick(elapsedMs) {
      done++;
      if (elapsedMs - lastLine >= LINE_EVERY_MS || done === total) {
        lastLine = elapsedMs;
        stream.write(`evidence: ${done}/${total} examples, ${(done / Math.max(elapsedMs / 1000, 1e-9)).toFixed(1)} examples/s\n`);
      }
    },
    stop: () => undefined,
  };
}
