// A generation as the evidence cache keeps it: JSON, with the full next-token distributions (L3) as base64
// float32 rows so that an item's row stays a few kilobytes per generated token instead of a JSON number list.
import type { GeneratedSequence, GenerationResult } from "../../adapters/index.js";

export interface StoredSequence {
  text: string;
  tokens: string[];
  finishReason: GeneratedSequence["finishReason"];
  logProbs?: number[];
  topLogProbs?: Array<Record<string, number>>;
  entropies?: number[];
  /** Base64 of each row's float32 bytes. */
  distributions?: string[];
  embedding?: number[];
}

export interface StoredGeneration {
  greedy: StoredSequence;
  samples: StoredSequence[];
}

const toBase64 = (row: Float32Array): string => Buffer.from(row.buffer, row.byteOffset, row.byteLength).toString("base64");

export function fromBase64(text: string): Float32Array {
  const bytes = Buffer.from(text, "base64");
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return new Float32Array(copy.buffer);
}

function storeSequence(s: GeneratedSequence): StoredSequence {
  return {
    text: s.text, tokens: [...s.tokens], finishReason: s.finishReason,
    ...(s.logProbs ? { logProbs: [...s.logProbs] } : {}),
    ...(s.topLogProbs ? { topLogProbs: s.topLogProbs.map((t) => ({ ...t })) } : {}),
    ...(s.entropies ? { entropies: [...s.entropies] } : {}),
    ...(s.distributions ? { distributions: s.distributions.map(toBase64) } : {}),
    ...(s.embedding ? { embedding: [...s.embedding] } : {}),
  };
}

export function storeGeneration(result: GenerationResult): StoredGeneration {
  return { greedy: storeSequence(result.greedy), samples: result.samples.map(storeSequence) };
}
