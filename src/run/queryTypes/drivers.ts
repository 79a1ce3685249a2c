// The driver of each typed query, by name.
import { beliefDriver, gateDriver } from "./beliefGate.js";
import { claimDriver } from "./claim.js";
import { judgeDriver } from "./judge.js";
import { routeDriver } from "./route.js";
import type { Driver, TypedQuery } from "./types.js";

export const DRIVERS: Record<TypedQuery, Driver> = { belief: beliefDriver, gate: gateDriver, claim: claimDriver, judge: judgeDriver, route: routeDriver };
