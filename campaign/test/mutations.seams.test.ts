import { MUTATIONS } from "../src/adversary/mutations/index.ts";
import { mutationGate } from "./mutation-gate.ts";

// The test-seam mutations: a seam is process-wide, so they run one after another, in this
// file's own worker (never beside the weakened-script file's runs or the adversary gate's).
mutationGate(
  "the adversarial oracle sees every weakened TypeScript rule",
  MUTATIONS.filter((m) => m.apply.kind === "seam"),
);
