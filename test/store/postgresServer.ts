// A real PostgreSQL server for the tests: initdb into a fresh temporary folder and pg_ctl start, listening on a
// unix socket in that folder only (no TCP). PostgreSQL refuses to run as root, so as root the server runs as the
// unprivileged system user `calibkit-pg` (created when missing) and the folder belongs to it.
import { execFileSync, spawnSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, chmodSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const USER = "calibkit-pg";

/** The bin folder of the newest PostgreSQL on the machine (Debian's layout), or undefined. */
export function postgresBin(): string | undefined {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).filter((v) => existsSync(join(root, v, "bin", "initdb"))).sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(root, versions[0], "bin");
}

export interface PostgresServer {
  /** The folder holding the data directory and the socket. */
  dir: string;
  /** A URL to a database of this server (created on first use). */
  database(name: string): Promise<string>;
  /** pg_ctl stop / start, for the tests of an unreachable database. */
  stop(): void;
  start(): void;
  /** Stops the server and removes its folder. */
  destroy(): void;
}

const asRoot = process.getuid?.() === 0;

function ensureUser(): { uid: number; gid: number } {
  let id = spawnSync("id", ["-u", USER], { encoding: "utf8" });
  if (id.status !== 0) {
    execFileSync("useradd", ["--system", "--no-create-home", "--shell", "/usr/sbin/nologin", USER], { stdio: "ignore" });
    id = spawnSync("id", ["-u", USER], { encoding: "utf8" });
  }
  const gid = spawnSync("id", ["-g", USER], { encoding: "utf8" });
  return { uid: Number(id.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

function run(bin: string, tool: string, args: string[]): void {
  const command = asRoot ? "runuser" : join(bin, tool);
  const argv = asRoot ? ["-u", USER, "--", join(bin, tool), ...args] : args;
  const result = spawnSync(command, argv, { encoding: "utf8", cwd: "/" });
  if (result.status !== 0) throw new Error(`${tool} ${args.join(" ")} failed (${result.status}): ${result.stderr}${result.stdout}`);
}

/** Starts a fresh server; throws with the reason when PostgreSQL is not installed (npm run setup installs it). */
export function startPostgres(): PostgresServer {
  const bin = postgresBin();
  if (!bin) throw new Error("PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb); run npm run setup");
  const dir = mkdtempSync(join(tmpdir(), "calibkit-pg-"));
  if (asRoot) {
    const { uid, gid } = ensureUser();
    chownSync(dir, uid, gid);
  }
  chmodSync(dir, 0o700);
  const data = join(dir, "data");
  run(bin, "initdb", ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"]);
  const options = `-c listen_addresses='' -k ${dir} -c max_connections=100 -c shared_buffers=32MB`;
  const start = () => run(bin, "pg_ctl", ["-D", data, "-l", join(dir, "server.log"), "-o", options, "-w", "-t", "60", "start"]);
  const stop = () => run(bin, "pg_ctl", ["-D", data, "-m", "fast", "-w", "stop"]);
  start();
  const created = new Set<string>();
  return {
    dir,
    async database(name: string) {
      if (!created.has(name)) {
        run(bin, "psql", ["-h", dir, "-U", "postgres", "-d", "postgres", "-q", "-c", `CREATE DATABASE "${name}"`]);
        created.add(name);
      }
      return `postgres://postgres@localhost/${name}?host=${encodeURIComponent(dir)}`;
    },
    stop,
    start,
    destroy() {
      try {
        stop();
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
