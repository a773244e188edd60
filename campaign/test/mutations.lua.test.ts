import { MUTATIONS } from "../src/adversary/mutations/index.ts";
import { mutationGate } from "./mutation-gate.ts";

// The weakened-script mutations: each lives in its own clients' backends, so all share one pool.
mutationGate(
  "the adversarial oracle sees every weakened script",
  MUTATIONS.filter((m) => m.apply.kind === "lua"),
);
