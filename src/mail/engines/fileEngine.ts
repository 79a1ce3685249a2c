// The embedded default engine: each message becomes `<outbox>/<message_id>.eml`, written to a temp
// file, fsynced and renamed, so a kill leaves either the whole file or none. Writing the same
// message again replaces its file: this engine never duplicates.
import { mkdir, open, readdir, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import nodemailer from "nodemailer";
import { fsyncDir } from "../../durable/index.js";
import { mailOptionsOf, type DeliveryEngine, type DeliveryOutcome, type OutgoingMessage } from "./engine.js";

export interface FileEngineOptions {
  /** Folder the .eml files are written to; created when missing. */
  outbox: string;
  /** Messages written at once. Default 4. */
  concurrency?: number;
}

export const emlFileName = (messageId: string) => `${messageId.replace(/[^A-Za-z0-9._@-]/g, "_")}.eml`;

export async function createFileEngine(options: FileEngineOptions): Promise<DeliveryEngine> {
  await mkdir(options.outbox, { recursive: true });
  // A kill between write and rename leaves a temp file; its message is still queued and is written again.
  for (const name of await readdir(options.outbox)) {
    if (name.startsWith(".") && name.endsWith(".eml.tmp")) await rm(join(options.outbox, name), { force: true });
  }
  // The stream transport only composes the MIME text; nothing leaves the process.
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });

  async function deliver(message: OutgoingMessage): Promise<DeliveryOutcome> {
    const name = emlFileName(message.messageId);
    const final = join(options.outbox, name);
    const temp = join(options.outbox, `.${name}.tmp`);
    try {
      const info = await composer.sendMail(mailOptionsOf(message));
      const fh = await open(temp, "w");
      try {
        await fh.writeFile(info.message as Buffer);
        await fh.sync();
      } finally {
        await fh.close();
      }
      await rename(temp, final);
      await fsyncDir(options.outbox);
      return { kind: "delivered", detail: `written to ${final}` };
    } catch (err) {
      // A full disk or a permission problem may clear up; retry with backoff.
      return { kind: "temporary", detail: err instanceof Error ? err.message : String(err) };
    }
  }

  return {
    name: "file",
    concurrency: options.concurrency ?? 4,
    deliver,
    async dispose() {
      composer.close();
    },
  };
}
