// Faults and hostile input seen from outside (issue 12, point 4), against a real `calibkit serve`:
// deeply nested JSON in a stored field, labels and groups named like built-in object members, and a tiny alpha.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLIENT_BACKEND, startServer, type Spawned } from "./helpers.js";

let server: Spawned;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

async function post(path: string, body: unknown | string) {
  const res = await fetch(`${server.url}/api/v1${path}`, {
    method: "POST", headers: { "content-type": "application/json" }, body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

const deep = (levels: number) => "[".repeat(levels) + "]".repeat(levels);
const A_B = { option_probabilities: { A: 0.7, B: 0.3 } };

describe("deeply nested JSON in a stored field", () => {
  it("answers 422 naming the example's field, and the service keeps serving", async () => {
    expect((await post("/calibration-profiles", { name: "deep", backend: CLIENT_BACKEND, alpha: 0.1 })).status).toBe(201);
    const body = `{"examples":[{"context":"c","label":"A","metadata":{"evidence":${JSON.stringify(A_B)},"extra":${deep(5000)}}}]}`;
    const res = await post("/calibration-profiles/deep/examples", body);
    expect(res.status).toBe(422);
    expect(res.body.field).toBe("examples.0.metadata.extra");
    const context = await post("/calibration-profiles/deep/examples", `{"examples":[{"context":${deep(4200)},"label":"A"}]}`);
    expect(context.status).toBe(422);
    expect(context.body.field).toBe("examples.0.context");
    const profile = await (await fetch(`${server.url}/api/v1/calibration-profiles/deep`)).json() as { n: number };
    expect(profile.n).toBe(0);
  });

  it("answers 422 naming the backend field of a profile", async () => {
    const body = `{"name":"deep-backend","alpha":0.1,"backend":{"provider":"client_evidence","name":"m","access_level":"L1","extra":${deep(4200)}}}`;
    const res = await post("/calibration-profiles", body);
    expect(res.status).toBe(422);
    expect(res.body.field).toBe("backend.extra");
  });
});

describe("names of built-in object members", () => {
  it("refuses a label that is not one of the evidence's names, even toString or __proto__", async () => {
    expect((await post("/calibration-profiles", { name: "proto", backend: CLIENT_BACKEND, alpha: 0.1 })).status).toBe(201);
    for (const label of ["toString", "constructor", "__proto__", "hasOwnProperty"]) {
      const res = await post("/calibration-profiles/proto/examples", { examples: [{ context: "c", label, metadata: { evidence: A_B } }] });
      expect(res.status, label).toBe(422);
      expect(res.body.field).toBe("examples.0.label");
    }
    const profile = await (await fetch(`${server.url}/api/v1/calibration-profiles/proto`)).json() as { n: number };
    expect(profile.n).toBe(0);
  });

  it("calibrates on options named like object members", async () => {
    const names = ["constructor", "toString"];
    const examples = Array.from({ length: 40 }, (_, i) => ({
      context: `c${i}`, label: names[i % 2], metadata: { evidence: { option_probabilities: { constructor: i % 2 ? 0.3 : 0.7, toString: i % 2 ? 0.7 : 0.3 } } },
    }));
    expect((await post("/calibration-profiles", { name: "members", backend: CLIENT_BACKEND, alpha: 0.1 })).status).toBe(201);
    const added = await post("/calibration-profiles/members/examples", { examples });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const res = await post("/evaluate", {
      context: "x", backend: CLIENT_BACKEND,
      queries: { q: { type: "set", instructions: "Pick", calibration_profile: "members", options: { constructor: "c", toString: "t" }, evidence: { option_probabilities: { constructor: 0.8, toString: 0.2 } } } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.answers.q.guarantee.n).toBe(40);
  });

  it("keeps a group named __proto__ in the profile's groups", async () => {
    expect((await post("/calibration-profiles", { name: "grouped", backend: CLIENT_BACKEND, alpha: 0.2, group_by: "site" })).status).toBe(201);
    const examples = ["__proto__", "constructor", "plain"].flatMap((site) =>
      Array.from({ length: 3 }, (_, i) => ({ context: `${site} ${i}`, label: "A", group: site, metadata: { evidence: A_B } })));
    const res = await post("/calibration-profiles/grouped/examples", { examples });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.groups).sort()).toEqual(["__proto__", "constructor", "plain"]);
    expect(res.body.groups.__proto__).toEqual({ n: 3, status: "collecting" });
    const again = (await (await fetch(`${server.url}/api/v1/calibration-profiles/grouped`)).text());
    const groups = JSON.parse(again).groups as Record<string, { n: number }>;
    expect(Object.hasOwn(groups, "__proto__")).toBe(true);
    expect(groups["__proto__"]!.n).toBe(3);
  });
});

describe("a tiny alpha", () => {
  it("names the request's alpha field, not an internal one", async () => {
    const res = await post("/calibration-profiles", { name: "tiny", backend: CLIENT_BACKEND, alpha: 1e-9 });
    expect(res.status).toBe(422);
    expect(res.body.field).toBe("alpha");
    expect(res.body.message).not.toMatch(/\btol\b/);
  });
});
