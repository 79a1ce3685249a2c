// Progress of a long step on stderr, with rate and ETA: a cli-progress bar on a terminal, plain
// periodic lines otherwise (CI logs, pipes), so that a log file never fills with carriage returns.
import cliProgress from "cli-progress";

export interface Progress {
  /** Adds `done` finished items. */
  increment(done?: number): void;
  /** Ends the step; prints its total time and rate. Returns the seconds it took. */
  stop(): number;
}

export interface ProgressOptions {
  /** Where to write; default process.stderr. */
  stream?: NodeJS.WriteStream;
  /** Plain lines at most this often, in ms (non-TTY). Default 2000. */
  intervalMs?: number;
  /** No output at all. */
  quiet?: boolean;
}

/** The bars of the steps open now on a terminal. */
let multi: { bars: cliProgress.MultiBar; open: number } | undefined;

const rateOf = (done: number, seconds: number) => (seconds > 0 ? done / seconds : 0);
const eta = (left: number, rate: number) => (rate > 0 ? `${Math.ceil(left / rate)} s` : "?");

export function startProgress(label: string, total: number, options: ProgressOptions = {}): Progress {
  const stream = options.stream ?? process.stderr;
  const started = performance.now();
  let done = 0;
  const seconds = () => (performance.now() - started) / 1000;
  const finish = () => {
    const s = seconds();
    if (!options.quiet) stream.write(`${label}: ${done}/${total} in ${s.toFixed(1)} s (${rateOf(done, s).toFixed(1)}/s)\n`);
    return s;
  };
  if (options.quiet) {
    return { increment: (n = 1) => void (done += n), stop: seconds };
  }
  if (stream.isTTY) {
    // Steps that run at once (a bench's servers side by side) share one MultiBar: a line each.
    const shared = (multi ??= {
      bars: new cliProgress.MultiBar(
        { format: "{label} [{bar}] {value}/{total} | {rate}/s | ETA {eta_formatted}", stream, hideCursor: true, etaBuffer: 50 },
        cliProgress.Presets.shades_classic,
      ),
      open: 0,
    });
    shared.open++;
    const bar = shared.bars.create(total, 0, { label: label.padEnd(12), rate: "0.0" });
    return {
      increment(n = 1) {
        done += n;
        bar.update(done, { rate: rateOf(done, seconds()).toFixed(1) });
      },
      stop() {
        const s = seconds();
        const line = `${label}: ${done}/${total} in ${s.toFixed(1)} s (${rateOf(done, s).toFixed(1)}/s)\n`;
        shared.bars.remove(bar);
        if (--shared.open > 0) {
          shared.bars.log(line);
        } else {
          shared.bars.stop();
          multi = undefined;
          stream.write(line);
        }
        return s;
      },
    };
  }
  const interval = options.intervalMs ?? 2000;
  let last = 0;
  stream.write(`${label}: 0/${total}\n`);
  return {
    increment(n = 1) {
      done += n;
      const now = performance.now();
      if (now - last >= interval && done < total) {
        last = now;
        const rate = rateOf(done, seconds());
        stream.write(`${label}: ${done}/${total} (${(100 * done / total).toFixed(0)}%, ${rate.toFixed(1)}/s, ETA ${eta(total - done, rate)})\n`);
      }
    },
    stop: finish,
  };
}
