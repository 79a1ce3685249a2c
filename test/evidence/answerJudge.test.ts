// The judge grader and claims' p(True) on fixed prompts (issue 27, points 4 and 6), through the real stories260K
// in llama.cpp and through `calibkit serve-model` on loopback with the OpenAI-compatible adapter: each p(yes) is
// the model's own p(" yes") / (p(" yes") + p(" no")) after the judge prompt, scored independently here one prompt
// at a time; an answer is right exactly when p(yes) > p(no) for some reference; a claim's score is p("True") after
// lm-polygraph's claim-level P(True) prompt.
import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countingAdapter, createLlamaCppAdapter, createOpenAICompatibleAdapter, type ModelAdapter } from "../../src/adapters/index.js";
import { answerJudgeText, claimPTrue, judgeAnswers, judgeGrade, pTrueClaimText, type JudgeQuestion } from "../../src/evidence/index.js";
import { GGUF } from "../cliProcess.js";
import { spawnCalibkit, type Spawned } from "../service/helpers.js";

const QUESTIONS: JudgeQuestion[] = [
  { question: "Tom and Sue were best", answer: "friends", references: ["friends", "pals"] },
  { question: "Lily looked up at the sky. It was", answer: "blue and big", references: ["blue"] },
  { question: "Max saw a little frog in the pond. Max wanted to help the", answer: "dog", references: ["frog"] },
];
const CLAIMS = [{ question: "Tom and Sue were best", claims: ["They were friends.", "Sue had a red ball."] }];

/** The model's own [log p(" yes"), log p(" no")] after one prompt, asked alone. */
async function yesNo(adapter: ModelAdapter, prompt: string): Promise<[number, number]> {
  const [pair] = adapter.accessLevel >= "L2"
    ? await adapter.scoreContinuations([{ prefix: prompt, continuations: [" yes", " no"] }])
    : [await adapter.firstTokenLogProbs(prompt, [" yes", " no"])];
  return [pair![0]!, pair![1]!];
}

async function checkJudge(adapter: ModelAdapter, digits: number): Promise<void> {
  const counted = countingAdapter(adapter);
  const verdicts = await judgeAnswers(counted.adapter, QUESTIONS);
  // Every prompt of every answer in one scoring call.
  expect(counted.calls()).toBe(adapter.accessLevel >= "L2" ? 1 : QUESTIONS.reduce((n, q) => n + q.references.length, 0));
  for (const [i, q] of QUESTIONS.entries()) {
    expect(verdicts[i]!.pYes).toHaveLength(q.references.length);
    for (const [r, ref] of q.references.entries()) {
      const [yes, no] = await yesNo(adapter, answerJudgeText(q.question, ref, q.answer));
      expect(verdicts[i]!.pYes[r]).toBeCloseTo(Math.exp(yes) / (Math.exp(yes) + Math.exp(no)), digits);
    }
    const own = await Promise.all(q.references.map((ref) => yesNo(adapter, answerJudgeText(q.question, ref, q.answer))));
    const grade = judgeGrade(verdicts[i]!);
    expect(grade.correct).toBe(own.some(([yes, no]) => yes > no));
    expect(grade.grader).toBe("judge:answer-match/v1");
  }
  const scores = await claimPTrue(adapter, CLAIMS);
  for (const [c, claim] of CLAIMS[0]!.claims.entries()) {
    const [[lp]] = adapter.accessLevel >= "L2"
      ? (await adapter.scoreContinuations([{ prefix: pTrueClaimText(CLAIMS[0]!.question, claim), continuations: ["True"] }])) as [number[]]
      : [await adapter.firstTokenLogProbs(pTrueClaimText(CLAIMS[0]!.question, claim), ["True"])];
    expect(scores[0]![c]).toBeCloseTo(Math.exp(lp!), digits + 2);
  }
}

describe.skipIf(!existsSync(GGUF))("the judge grader's decision against the model's own yes/no log-probabilities", () => {
  let local: ModelAdapter;
  let served: Spawned;
  let remote: ModelAdapter;
  beforeAll(async () => {
    local = await createLlamaCppAdapter({ modelPath: GGUF, gpu: false });
    served = await spawnCalibkit(["serve-model", "--model", GGUF, "--threads", "1"], 60_000);
    remote = await createOpenAICompatibleAdapter({ baseUrl: served.url });
  }, 90_000);
  afterAll(async () => {
    await remote?.dispose();
    await served?.stop();
    await local?.dispose();
  });

  it("stories260K in llama.cpp: p(yes) per reference, and right exactly when p(yes) > p(no) for some reference", async () => {
    // llama.cpp's batched and single evaluations differ in the fourth decimal.
    await checkJudge(local, 2);
  });

  it("a calibkit serve-model server through the OpenAI-compatible adapter (log-probabilities over HTTP)", async () => {
    expect(["L1", "L2"]).toContain(remote.accessLevel);
    await checkJudge(remote, 2);
  });
});
