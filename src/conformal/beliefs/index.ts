// Face of the calibrated probabilities: Venn–Abers on one score, and per option for set answers.

export { fitVennAbersSteps as calibrateBeliefSteps } from "./vennAbersFit.js";
export { calibrateBelief, predictBelief, predictBeliefBatch, vennAbersReference, type CalibratedBelief, type BeliefPrediction } from "./vennAbers.js";
export {
  calibrateOptionBeliefs,
  calibrateOptionBeliefsSteps,
  predictOptionBeliefs,
  predictOptionBeliefsBatch,
  type CalibratedOptionBeliefs,
} from "./optionBeliefs.js";
export { calibrateOptionBeliefsPooled, calibrateOptionBeliefsPooledSteps } from "./optionBeliefsPooled.js";
