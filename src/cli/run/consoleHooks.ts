// The run library's events as `calibkit run` and `calibkit bench` show them: log lines and progress bars on
// stderr (nothing with --quiet), and the temporary folders removed on Ctrl-C.
import type { RunHooks } from "../../run/index.js";
import { removeOnInterrupt } from "./interrupt.js";
import { startProgress, type Progress } from "./progress.js";

export function consoleHooks(quiet: boolean): RunHooks {
  const bars = new Map<string, { bar: Progress; done: number }>();
  return {
    onTemporaryFolder: removeOnInterrupt,
    ...(quiet ? {} : {
      onLog: (line: string) => void process.stderr.write(`${line}\n`),
      onProgress(event) {
        if (event.type === "start") bars.set(event.step, { bar: startProgress(event.step, event.total), done: 0 });
        const b = bars.get(event.step);
        if (!b) return;
        if (event.type === "advance") {
          b.bar.increment(event.done - b.done);
          b.done = event.done;
        } else if (event.type === "end") {
          b.bar.stop();
          bars.delete(event.step);
        }
      },
    } satisfies RunHooks),
  };
}
