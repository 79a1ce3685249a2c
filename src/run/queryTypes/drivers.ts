// The driver of each typed query, by name; free-form (generation) items have drivers of their own.
import { beliefDriver, gateDriver } from "./beliefGate.js";
import { claimDriver } from "./claim.js";
import { judgeDriver } from "./judge.js";
import { routeDriver } from "./route.js";
import type { Dataset } from "../../datasets/index.js";
import type { ResolvedCalibrationOptions } from "../calibrationOptions.js";
import { RunInputError } from "../errors.js";
import type { Driver, TypedQuery } from "./types.js";

export const DRIVERS: Record<TypedQuery, Driver> = { belief: beliefDriver, gate: gateDriver, claim: claimDriver, judge: judgeDriver, route: routeDriver };

/** The driver of `type` for this dataset: a generation file takes gate, belief, claim or route with --task (issue 27). */
export async function driverFor(options: ResolvedCalibrationOptions, type: TypedQuery, dataset: Dataset): Promise<Driver> {
  if (dataset.kind !== "generation") return DRIVERS[type];
  if (!options.generation) throw new RunInputError(options.dataset, "holds free-form (generation) items: give --task (generic, triviaqa, nq_open, gsm8k or truthfulqa_gen)");
  if (type === "route") return (await import("./generationRoute.js")).generationRouteDriver(options, options.generation, dataset);
  if (type !== "gate" && type !== "belief" && type !== "claim") {
    throw new RunInputError(options.dataset, `holds free-form items; ${type} queries over generated answers are not there yet (gate, belief, claim and route are)`);
  }
  const { generationDriver } = await import("./generation.js");
  return generationDriver(type, options, options.generation, dataset);
}
