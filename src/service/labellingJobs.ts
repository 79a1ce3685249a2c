// label-with-judge as a background job: queued → running → succeeded | failed. The judge (a configured
// backend) labels every unlabelled example from the label names the profile already uses; the labelled
// examples join the profile as one durable batch (source "judge"), and a random sample of them, drawn with a
// seed from the job id, goes to the human queue for review. Job snapshots are atomic files; a job that was
// queued or running when the process stopped is marked failed on restart (it is safe to submit again).
import { randomUUID } from "node:crypto";
import { mkdir, readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { ExampleRecord, ServiceLabellingJob, LabelWithJudgeRequest } from "../api/index.js";
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
import { removeStaleTemporaries, writeFileAtomic } from "../durable/index.js";

export class LabellingJobs {
  private readonly jobs = new Map<string, ServiceLabellingJob>();
  private readonly running = new Set<Promise<void>>();

  private constructor(
    private readonly dir: string,
    private readonly deps: { profiles: ProfileStore; backends: BackendRegistry; humanQueue: HumanQueue; log: (line: string) => void },
  ) {}

  static async open(dataDir: string, deps: LabellingJobs["deps"]): Promise<LabellingJobs> {
    const jobs = new LabellingJobs(join(dataDir, "jobs"), deps);
    await mkdir(jobs.dir, { recursive: true });
    await removeStaleTemporaries(jobs.dir);
    for (const file of await readdir(jobs.dir)) {
      if (!file.endsWith(".json")) continue;
      const job = JSON.parse(await readFile(join(jobs.dir, file), "utf8")) as ServiceLabellingJob;
      if (job.status === "queued" || job.status === "running") {
        job.status = "failed";
        job.error = "the service stopped before the job finished; submit it again";
        job.updated_at = new Date().toISOString();
        await writeFileAtomic(join(jobs.dir, file), JSON.stringify(job));
      }
      jobs.jobs.set(job.id, job);
    }
    return jobs;
  }

  get(profile: string, id: string): ServiceLabellingJob {
    const job = this.jobs.get(id);
    if (!job || job.profile !== profile) throw notFound(`No labelling job ${id} on profile "${profile}"`);
    return job;
  }

  /** Validates, records the job as queued (durably), and starts it in the background. */
  async submit(profile: ProfileState, request: LabelWithJudgeRequest): Promise<ServiceLabellingJob> {
    const judge = this.deps.backends.resolve(request.judge, "judge");
    if (request.human_labelled_sample_size > request.unlabelled_examples.length) {
      throw invalidField("human_labelled_sample_size", `\`human_labelled_sample_size\` (${request.human_labelled_sample_size}) exceeds the ${request.unlabelled_examples.length} unlabelled examples`);
    }
    const labels = labelNames(profile);
    if (labels.length < 2) {
      throw invalidField("unlabelled_examples", `Profile "${profile.name}" has fewer than 2 label names in its examples to choose from; add labelled examples first`);
    }
    const now = new Date().toISOString();
    const job: ServiceLabellingJob = {
      id: `job_${randomUUID()}`, profile: profile.name, status: "queued", total: request.unlabelled_examples.length, labelled: 0,
      human_review: [], created_at: now, updated_at: now, error: null,
    };
    Object.assign(job, { judge: judge.config.name, labels, human_labelled_sample_size: request.human_labelled_sample_size });
    await this.save(job);
    const task = this.run(job, request, labels).finally(() => this.running.delete(task));
    this.running.add(task);
    return { ...job };
  }

  private async save(job: ServiceLabellingJob): Promise<void> {
    job.updated_at = new Date().toISOString();
    this.jobs.set(job.id, job);
    await writeFileAtomic(join(this.dir, `${job.id}.json`), JSON.stringify(job));
  }

  private async run(job: ServiceLabellingJob, request: LabelWithJudgeRequest, labels: string[]): Promise<void> {
    try {
      job.status = "running";
      await this.save(job);
      const usage = { backend_calls: 0, backend_tokens: 0 };
      const stages = createStageCaller(this.deps.backends, this.deps.humanQueue, usage);
      const examples: ExampleRecord[] = [];
      for (const [i, item] of request.unlabelled_examples.entries()) {
        const prompt = `${stagePrompt(undefined, item.context)}\nLabel (${labels.join(", ")}):`;
        const p = await stages.judge(request.judge, "judge", prompt, labels);
        let best = 0;
        for (let j = 1; j < p.length; j++) if (p[j]! > p[best]!) best = j;
        const metadata = { ...((item as { metadata?: Record<string, unknown> }).metadata ?? {}), judge: job.judge, judge_probabilities: Object.fromEntries(labels.map((l, j) => [l, p[j]!])) };
        examples.push({ ...item, label: labels[best]!, source: "judge", metadata } as ExampleRecord);
        job.labelled = i + 1;
      }
      // The human-review sample: a seeded random draw, so the same job id always reviews the same examples.
      const order = permutation(examples.length, rngFromString(job.id));
      const sample = Array.from(order.subarray(0, request.human_labelled_sample_size)).sort((a, b) => a - b);
      const ids = await this.deps.humanQueue.enqueue(sample.map((index) => ({
        kind: "labelling" as const, profile: job.profile, job_id: job.id, context: examples[index]!.context,
        detail: { index, judge_label: examples[index]!.label, labels },
      })));
      job.human_review = sample.map((index, k) => ({ index, context: examples[index]!.context, judge_label: examples[index]!.label, human_queue_item: ids[k] }));
      await this.deps.profiles.change(job.profile, async (state) => {
        const { record } = prepareExamples(state, examples, undefined);
        return { record, result: () => undefined };
      });
      job.status = "succeeded";
      Object.assign(job, { usage });
      await this.save(job);
    } catch (err) {
      job.status = "failed";
      job.error = err instanceof Error ? err.message : String(err);
      this.deps.log(`labelling job ${job.id} failed: ${job.error}`);
      await this.save(job).catch(() => undefined);
    }
  }

  /** Waits for running jobs (used by close()). */
  async drain(): Promise<void> {
    await Promise.all([...this.running]);
  }
}

/** The label names the profile's examples use: their evidence's option names, else the labels themselves. */
function labelNames(profile: ProfileState): string[] {
  const names = new Set<string>();
  for (const example of profile.examples) {
    const options = exampleEvidence(example)?.option_probabilities;
    if (options) for (const k of Object.keys(options)) names.add(k);
    else {
      const label = labelName(example.label);
      if (label !== undefined) names.add(label);
    }
    if (names.size > 64) break;
  }
  return [...names].sort();
}
