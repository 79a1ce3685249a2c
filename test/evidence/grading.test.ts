// Each generation task graded as lm-eval grades it, on the hard cases: articles, punctuation, `#### 1,000`,
// `$18.00`, answers with trailing text after the stop. Expected values are lm-eval's own computations
// (commit 4e7e0d4: api/metrics.py exact_match_hf_evaluate, filters/extraction.py RegexFilter and
// WhitespaceFilter, tasks/truthfulqa/utils.py process_results_gen over sacrebleu f615c72 and rouge_score),
// each answer first cut at the task's `until` as generate_until cuts it:
//   python3 -c "from lm_eval.api.metrics import exact_match_hf_evaluate as em; from lm_eval.filters.extraction import
//     RegexFilter, WhitespaceFilter; out = ' Eiffel Tower, in Paris'.split(',')[0]; f = WhitespaceFilter().apply([[out]], None)[0][0];
//     print(em(references=['Eiffel Tower','La Tour Eiffel'], predictions=[f]*2, ignore_case=True, ignore_punctuation=True))"
// (the same with each case's task options below), and SQuAD v1.1's evaluate-v1.1.py f1_score / exact_match_score.
import { describe, expect, it } from "vitest";
import {
  exactMatch, GENERATION_TASKS, gradeAnswer, regexFilter, sacreBleu, squadScores, truthfulqaRouge, type GenerationTaskName,
} from "../../src/evidence/index.js";

const item = (references: string[], incorrect?: string[]) => ({ id: "x", question: "q", context: "", references, ...(incorrect ? { incorrect } : {}) });
const grade = (task: GenerationTaskName, out: string, refs: string[], incorrect?: string[]) => gradeAnswer(GENERATION_TASKS[task], out, item(refs, incorrect));

describe("triviaqa and nq_open: exact_match after remove_whitespace, ignoring case and punctuation", () => {
  it.each([
    ["triviaqa", " Eiffel Tower, in Paris", ["Eiffel Tower", "La Tour Eiffel"], 1], // trailing text after the "," stop
    ["triviaqa", " the eiffel tower.", ["Eiffel Tower", "The Eiffel Tower"], 1],
    ["triviaqa", " U.S.A.", ["USA"], 0], // the "." stop cuts "U.S.A." to "U"
    ["triviaqa", " U-S-A", ["U.S.A."], 1],
    ["triviaqa", "\n Paris", ["Paris"], 0], // the "\n" stop leaves nothing
    ["triviaqa", " Mr Smith's", ["mr smiths"], 1],
    ["triviaqa", "\u00a0Pele\u00a0", ["pele"], 1], // Python's strip() takes the no-break spaces
    ["triviaqa", " Pelé", ["Pele"], 0], // accents are not punctuation
    ["nq_open", " The Beatles", ["Beatles"], 1],
    ["nq_open", " a tale of two cities", ["Tale of Two Cities"], 1],
    ["nq_open", " Theatre", ["atre"], 0], // "The " needs its space: "Theatre" keeps its "The"
    ["nq_open", " An apple a day", ["apple day"], 1],
    ["nq_open", " the The end", ["end"], 1],
    ["nq_open", " éThe end", ["éend"], 0], // Python's \\b: no boundary between é and T
    ["nq_open", " 1,000 people, roughly", ["1000 people"], 0], // the "," stop cuts at "1"
    ["nq_open", " Mount Everest\nQ: next", ["Mount Everest"], 1],
  ] as const)("%s %j → %d", (task, out, refs, want) => {
    const g = grade(task, out, [...refs]);
    expect(g.metrics).toEqual({ "exact_match,remove_whitespace": want });
    expect(g.correct).toBe(want === 1);
  });
});

describe("gsm8k: strict-match and flexible-extract, regexes_to_ignore , $ (?s).*#### \\.$", () => {
  it.each([
    [" She has 3 + 5 = 8 apples.\n#### 8", "Natalia sold 48/2 = <<48/2=24>>24 clips in May.\n#### 8", 1, 1],
    [" The total is 1000 dollars.\n#### 1,000", "So 500*2 = 1000\n#### 1000", 1, 1],
    [" So he pays $18.00 in all.", "He pays 2*9 = $<<2*9=18>>18\n#### 18", 0, 0], // "18.00" ≠ "18": only a final "." goes
    [" So he pays $18.00 in all.\n#### $18.00", "#### 18", 0, 0], // strict-match's pattern has no "$"
    [" 5 + 5 = 10, then 10 * 2 = 20.\n#### 20\n\nQuestion: A farmer has 7 cows", "#### 20", 1, 1], // cut at "Question:"
    [" The answer is -3.", "#### -3", 0, 1],
    [" It takes 2.5 hours, so #### 2.5", "#### 2.5", 1, 1],
    [" I do not know", "#### 4", 0, 0],
    [" She spent 1,200 dollars and kept 300.", "#### 300", 0, 1], // flexible-extract keeps the last number
    [" Total: 12.\n#### 12.", "#### 12", 1, 1],
    [" 7 apples, 8 pears", "#### 8", 0, 1],
  ] as const)("%j", (out, ref, strict, flexible) => {
    const g = grade("gsm8k", out, [ref]);
    expect(g.metrics).toEqual({ "exact_match,strict-match": strict, "exact_match,flexible-extract": flexible });
    expect(g.correct).toBe(strict === 1);
    expect(gradeAnswer(GENERATION_TASKS.gsm8k, out, item([ref]), { gsm8kFilter: "flexible-extract" }).correct).toBe(flexible === 1);
  });
  it("keeps lm-eval's filtered strings (fallback [invalid], the first non-empty group of the last match)", () => {
    const flexible = { pattern: /(-?[$0-9.,]{2,})|(-?[0-9]+)/g, groupSelect: -1 };
    expect(regexFilter(" So he pays $18.00 in all.", flexible)).toBe("$18.00");
    expect(regexFilter(" The answer is -3.", flexible)).toBe("-3.");
    expect(regexFilter(" I do not know", { pattern: /#### (-?[0-9.,]+)/g })).toBe("[invalid]");
  });
});

describe("truthfulqa_gen: BLEU and ROUGE max over correct against max over incorrect", () => {
  it("gives lm-eval's twelve values (BLEU to the last bits of Math.log/exp), bleu_acc deciding", () => {
    const correct = ["Nothing happens", "It passes through your digestive system"];
    const incorrect = ["It stays in your stomach for seven years", "You will die"];
    const close = (got: Record<string, number>, want: Record<string, number>) => {
      expect(Object.keys(got).sort()).toEqual(Object.keys(want).sort());
      for (const [k, v] of Object.entries(want)) expect(got[k], k).toBeCloseTo(v, 11);
    };
    const good = grade("truthfulqa_gen", " Nothing happens if you swallow gum; it passes through you.\n\nQ: What", correct, incorrect);
    close(good.metrics, {
      bleu_max: 7.495553473355845, bleu_acc: 1, bleu_diff: 4.10905490501131, rouge1_max: 37.49999999999999, rouge1_acc: 1, rouge1_diff: 22.11538461538461,
      rouge2_max: 28.57142857142857, rouge2_acc: 1, rouge2_diff: 28.57142857142857, rougeL_max: 37.49999999999999, rougeL_acc: 1, rougeL_diff: 22.11538461538461,
    });
    expect(good.correct).toBe(true);
    const bad = grade("truthfulqa_gen", "\nA: It stays in your stomach for seven years.", correct, incorrect);
    close(bad.metrics, {
      bleu_max: 4.9323515694897075, bleu_acc: 0, bleu_diff: -73.6751786457081, rouge1_max: 26.666666666666668, rouge1_acc: 0, rouge1_diff: -67.45098039215685,
      rouge2_max: 0, rouge2_acc: 0, rouge2_diff: -93.33333333333333, rougeL_max: 26.666666666666668, rougeL_acc: 0, rougeL_diff: -67.45098039215685,
    });
    expect(bad.correct).toBe(false);
    // "I have no comment." is always a correct answer; a blank incorrect answer is dropped.
    expect(grade("truthfulqa_gen", " I have no comment.", ["The Sun is a star."], ["The Sun is a planet.", "  "]).metrics.bleu_max).toBeCloseTo(100.00000000000004, 11);
    const mixed = grade("truthfulqa_gen", " Yes . It is 3.14 , roughly . Pi!", ["Pi is about 3.14"], ["Pi is exactly 3"]);
    close({ bleu_max: mixed.metrics.bleu_max!, bleu_acc: mixed.metrics.bleu_acc!, rouge1_acc: mixed.metrics.rouge1_acc!, rougeL_max: mixed.metrics.rougeL_max! },
      { bleu_max: 4.990049701936832, bleu_acc: 0, rouge1_acc: 1, rougeL_max: 66.66666666666666 });
    expect(mixed.correct).toBe(false);
    expect(gradeAnswer(GENERATION_TASKS.truthfulqa_gen, " Yes . It is 3.14 , roughly . Pi!", item(["Pi is about 3.14"], ["Pi is exactly 3"]), { truthfulqaMeasure: "rouge1" }).correct).toBe(true);
  });
  it("sacrebleu's intl tokenizer and exp smoothing, rouge_score's tokenizer and ROUGE-Lsum", () => {
    // lm-eval truthfulqa utils: bleu([[ref]], [pred]) and rouge([ref], [pred]), with sacrebleu and rouge_score
    const cases: [string, string, number, [number, number, number]][] = [
      ["The cat is on the mat.", "The cat sat on the mat.", 48.892302243490086, [83.33333333333334, 60, 83.33333333333334]],
      ["It costs 1,000.50 dollars, 2024.", "It costs $1,000.50 (or €3)!", 9.287528999566801, [71.42857142857143, 66.66666666666666, 71.42857142857143]],
      ["Paris.", "Paris", 0, [100, 0, 100]],
      ["Anything at all.", "", 0, [0, 0, 0]],
      ["the cat . the dog . the end", "the the the the", 7.733712583165139, [60, 0, 60]],
    ];
    for (const [ref, pred, bleu, [r1, r2, rl]] of cases) {
      expect(sacreBleu(ref, pred)).toBeCloseTo(bleu, 11);
      const r = truthfulqaRouge(ref, pred);
      expect([r.rouge1, r.rouge2, r.rougeLsum].map((x) => Number(x.toFixed(10)))).toEqual([r1, r2, rl].map((x) => Number(x.toFixed(10))));
    }
  });
});

describe("generic: SQuAD F1 against a threshold", () => {
  it.each([
    ["The Ball!", ["a ball", "the red ball"], 1, 1],
    ["a red, red ball", ["red ball"], 0.8, 0],
    ["", ["ball"], 0, 0],
    ["Lily went to the park", ["the park"], 0.4, 0],
  ] as const)("%j", (out, refs, f1, em) => {
    expect(squadScores(out, refs)).toEqual({ f1, exactMatch: em });
    const g = gradeAnswer(GENERATION_TASKS.generic, out, item([...refs]));
    expect(g).toEqual({ correct: f1 >= 0.5, grader: "f1>=0.5", metrics: { f1, exact_match: em } });
  });
  it("takes another threshold, and cuts a question's answer at the end of its line", () => {
    expect(gradeAnswer(GENERATION_TASKS.generic, "Lily went to the park", item(["the park"]), { f1Threshold: 0.4 }).correct).toBe(true);
    expect(gradeAnswer(GENERATION_TASKS.generic, "the park\nQuestion: and then?", item(["the park"])).metrics.f1).toBe(1);
    expect(() => gradeAnswer(GENERATION_TASKS.generic, "x", item(["x"]), { f1Threshold: 2 })).toThrow(/F1 threshold must lie in \[0, 1\]/);
  });
});

describe("exact_match's numpy details", () => {
  it("a lower-cased string is cut to its array's width, as numpy's fixed-width strings are", () => {
    // python3 -c "from lm_eval.api.metrics import exact_match_hf_evaluate as em;
    //   print(em(predictions=['İ'], references=['i'], ignore_case=True), em(predictions=['İx'], references=['ix'], ignore_case=True))"  → 1.0, 0.0
    expect(exactMatch("İ", ["i"], { ignoreCase: true })).toBe(1); // "i̇" cut to one character
    expect(exactMatch("İx", ["ix"], { ignoreCase: true })).toBe(0); // "i̇x" cut to two: "i̇"
    expect(exactMatch("ab\u0000", ["ab"])).toBe(1);
    // python3 -c "...; print(em(predictions=['5.\x00'], references=['5'], regexes_to_ignore=[',', '\\.$']))"  → 1.0:
    // the NUL is gone before "\.$" runs, as each regex's output is a numpy array again
    expect(exactMatch("5.\u0000", ["5"], { regexesToIgnore: [/,/g, /\.(?=\n?$)/g] })).toBe(1);
  });
});
