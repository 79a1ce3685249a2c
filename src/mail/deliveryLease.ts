// One deliverer per store: the mail queue's lease (docs/mail.md). A second mail-serve on the same store is
// refused while the first one renews its lease; a holder that died (its process is gone on this host, or it
// stopped renewing for LEASE_MS) is replaced at once.
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { CalibkitError } from "../api/index.js";
import type { LeaseHolder, Store } from "../store/index.js";

const NAME = "mail-delivery";
const LEASE_MS = 10_000;

export class StoreInUseError extends CalibkitError {
  override name = "StoreInUseError";
  constructor(location: string, holder: LeaseHolder) {
    super("DATA_DIR_LOCKED", `The store ${location} is in use by another calibkit mail-serve (process ${holder.pid} on ${holder.host}); stop it or pass another --data / --store`);
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

export async function takeDeliveryLease(store: Store, log: (line: string) => void): Promise<{ release(): Promise<void> }> {
  const me: LeaseHolder = { owner: randomUUID(), host: hostname(), pid: process.pid };
  const gone = (h: LeaseHolder) => h.host === me.host && h.pid !== me.pid && !alive(h.pid);
  const taken = await store.leases.acquire(NAME, me, LEASE_MS, gone);
  if (!taken.held) throw new StoreInUseError(store.location, taken.holder);
  const timer = setInterval(() => {
    store.leases.renew(NAME, me.owner, LEASE_MS).then((held) => {
      if (!held) log("mail: another mail-serve took over the delivery lease of this store");
    }, (err: unknown) => log(`mail: could not renew the delivery lease: ${err instanceof Error ? err.message : String(err)}`));
  }, LEASE_MS / 3);
  timer.unref();
  return {
    async release() {
      clearInterval(timer);
      await store.leases.release(NAME, me.owner).catch(() => undefined);
    },
  };
}
