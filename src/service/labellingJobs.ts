// label-with-judge as a background job: queued → running → succeeded | failed. The judge (a configured
// backend) labels every unlabelled example from the label names the profile already uses; the labelled
// examples join the profile as one durable batch (source "judge"), and a random sample of them, drawn with a
// seed from the job id, goes to the human queue for review.
//
// Jobs live in the store with a lease: the instance running one renews it; when that instance dies the lease
// runs out and any instance on the store claims the job and runs it again from the start. A second run
// cannot add the batch twice (it carries the Idempotency-Key `job:<id>`) nor queue the reviews twice (their
// ids come from the job id).
import { createHash, randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { ExampleRecord, LabellingJob, LabelWithJudgeRequest } from "../api/index.js";
import type { Store } from "../store/index.js";
import type { BackendRegistry } from "./backends/backendRegistry.js";
import { createStageCaller } from "./backends/stageCaller.js";
import { permutation, rngFromString } from "./engine/conformal.js";
import { exampleEvidence, labelName } from "./engine/evidence.js";
import { stagePrompt } from "./engine/routeQuery.js";
import { invalidField, notFound } from "./errors.js";
import type { HumanQueue } from "./humanQueue.js";
import { prepareExamples } from "./profiles/ingest.js";
import type { ProfileState } from "./profiles/profileState.js";
import type { ProfileStore } from "./profiles/profileStore.js";

/** How long a job stays with its instance without a renewal, and how often instances look for orphans. */
export const JOB_LEASE_MS = 6_000;
const CLAIM_EVERY_MS = 1_000;

interface Running {
  job: LabellingJob;
  request: LabelWithJudgeRequest;
  labels: string[];
  lost: boolean;
}

export class LabellingJobs {
  private readonly running = new Set<Promise<void>>();
  private readonly owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private timer: NodeJS.Timeout | undefined;
  private stopping = false;

  private constructor(
    private readonly store: Store,
    private readonly deps: { profiles: ProfileStore; backends: BackendRegistry; humanQueue: HumanQueue; log: (line: string) => void },
  ) {}

  static async open(store: Store, deps: LabellingJobs["deps"]): Promise<LabellingJobs> {
    const jobs = new LabellingJobs(store, deps);
    jobs.timer = setInterval(() => void jobs.claimOrphans(), CLAIM_EVERY_MS);
    jobs.timer.unref();
    return jobs;
  }

  async get(profile: string, id: string): Promise<LabellingJob> {
    const stored = await this.store.jobs.get(id);
    if (!stored || stored.profile !== profile) throw notFound(`No labelling job ${id} on profile "${profile}"`);
    return stored.job as LabellingJob;
  }

  /** Validates, stores the job as queued (durably, leased to this instance), and starts it in the background. */
  async submit(profile: ProfileState, request: LabelWithJudgeRequest): Promise<LabellingJob> {
    const judge = this.deps.backends.resolve(request.judge, "judge");
    if (request.human_labelled_sample_size > request.unlabelled_examples.length) {
      throw invalidField("human_labelled_sample_size", `\`human_labelled_sample_size\` (${request.human_labelled_sample_size}) exceeds the ${request.unlabelled_examples.length} unlabelled examples`);
    }
    const labels = labelNames(profile);
    if (labels.length < 2) {
      throw invalidField("unlabelled_examples", `Profile "${profile.name}" has fewer than 2 label names in its examples to choose from; add labelled examples first`);
    }
    const now = new Date().toISOString();
    const job: LabellingJob = {
      id: `job_${randomUUID()}`, profile: profile.name, status: "queued", total: request.unlabelled_examples.length, labelled: 0,
      human_review: [], created_at: now, updated_at: now, error: null,
    };
    Object.assign(job, { judge: judge.config.name, labels, human_labelled_sample_size: request.human_labelled_sample_size });
    await this.store.jobs.insert({ id: job.id!, profile: profile.name, status: "queued", updatedAt: now }, job, { request, labels }, this.owner, Date.now() + JOB_LEASE_MS);
    this.start({ job, request, labels, lost: false });
    return { ...job };
  }

  private start(entry: Running): void {
    const task = this.run(entry).finally(() => this.running.delete(task));
    this.running.add(task);
  }

  /** Claims jobs whose instance stopped renewing them, and runs them here. */
  private async claimOrphans(): Promise<void> {
    if (this.stopping) return;
    try {
      for (let claimed = 0; claimed < 4; claimed++) {
        const stored = await this.store.jobs.claimExpired(this.owner, Date.now(), Date.now() + JOB_LEASE_MS);
        if (!stored) return;
        const { request, labels } = stored.request as { request: LabelWithJudgeRequest; labels: string[] };
        const job = stored.job as LabellingJob;
        this.deps.log(`labelling job ${job.id}: its instance stopped renewing it; running it here`);
        job.labelled = 0;
        this.start({ job, request, labels, lost: false });
      }
    } catch (err) {
      this.deps.log(`could not look for orphaned labelling jobs: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  /** Saves the job and renews its lease; marks the entry lost when another instance holds it now. */
  private async save(entry: Running): Promise<void> {
    const job = entry.job;
    job.updated_at = new Date().toISOString();
    const held = await this.store.jobs.update(job.id!, job.status!, job, this.owner, Date.now() + JOB_LEASE_MS, job.updated_at);
    if (!held) entry.lost = true;
  }

  private async run(entry: Running): Promise<void> {
    const { job, request, labels } = entry;
    const renew = setInterval(() => void this.save(entry).catch(() => undefined), JOB_LEASE_MS / 3);
    renew.unref();
    try {
      job.status = "running";
      await this.save(entry);
      const usage = { backend_calls: 0, backend_tokens: 0 };
      const stages = createStageCaller(this.deps.backends, this.deps.humanQueue, usage);
      const examples: ExampleRecord[] = [];
      for (const [i, item] of request.unlabelled_examples.entries()) {
        if (entry.lost || this.stopping) return;
        const prompt = `${stagePrompt(undefined, item.context)}\nLabel (${labels.join(", ")}):`;
        const p = await stages.judge(request.judge, "judge", prompt, labels);
        let best = 0;
        for (let j = 1; j < p.length; j++) if (p[j]! > p[best]!) best = j;
        const metadata = { ...((item as { metadata?: Record<string, unknown> }).metadata ?? {}), judge: (job as { judge?: string }).judge, judge_probabilities: Object.fromEntries(labels.map((l, j) => [l, p[j]!])) };
        examples.push({ ...item, label: labels[best]!, source: "judge", metadata } as ExampleRecord);
        job.labelled = i + 1;
      }
      if (entry.lost) return;
      // The human-review sample: a seeded random draw, so the same job id always reviews the same examples.
      const order = permutation(examples.length, rngFromString(job.id!));
      const sample = Array.from(order.subarray(0, request.human_labelled_sample_size)).sort((a, b) => a - b);
      const ids = await this.deps.humanQueue.enqueue(sample.map((index) => ({
        id: `hq_${job.id}_${index}`, kind: "labelling" as const, profile: job.profile!, job_id: job.id!, context: examples[index]!.context,
        detail: { index, judge_label: examples[index]!.label, labels },
      })));
      job.human_review = sample.map((index, k) => ({ index, context: examples[index]!.context, judge_label: examples[index]!.label, human_queue_item: ids[k] }));
      const key = `job:${job.id}`;
      const sha256 = createHash("sha256").update(JSON.stringify(examples)).digest("hex");
      await this.deps.profiles.change(job.profile!, async (state) => {
        if (state.idempotency.has(key)) return { result: () => undefined }; // an earlier run of this job added it
        const { record } = prepareExamples(state, examples, { key, sha256 });
        return { record, result: () => undefined };
      });
      job.status = "succeeded";
      Object.assign(job, { usage });
      await this.save(entry);
    } catch (err) {
      if (this.stopping) return; // the service is closing: the lease runs out and an instance resumes the job
      job.status = "failed";
      job.error = err instanceof Error ? err.message : String(err);
      this.deps.log(`labelling job ${job.id} failed: ${job.error}`);
      await this.save(entry).catch(() => undefined);
    } finally {
      clearInterval(renew);
    }
  }

  /** Stops claiming, lets running jobs reach their next step (used by close()). */
  async drain(): Promise<void> {
    this.stopping = true;
    clearInterval(this.timer);
    await Promise.all([...this.running]);
  }
}

/** Label names found in each profile's examples so far, and how many examples were looked at (each once). */
const namesSeen = new WeakMap<ProfileState, { scanned: number; names: Set<string> }>();

/**
 * The label names the profile's examples use: their evidence's option names, else the labels themselves (the
 * examples are looked at in order until more than 64 names are found).
 */
function labelNames(profile: ProfileState): string[] {
  let seen = namesSeen.get(profile);
  if (!seen) namesSeen.set(profile, (seen = { scanned: 0, names: new Set() }));
  const { names } = seen;
  for (const n = profile.n; seen.scanned < n && names.size <= 64; seen.scanned++) {
    const example = profile.exampleAt(seen.scanned);
    const options = exampleEvidence(example)?.option_probabilities;
    if (options) for (const k of Object.keys(options)) names.add(k);
    else {
      const label = labelName(example.label);
      if (label !== undefined) names.add(label);
    }
  }
  return [...names].sort();
}
