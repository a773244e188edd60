import { FaultControl, type RedisProcess, type Stack } from "@edgelock/testkit";
import { MUTATIONS } from "../src/adversary/mutations/index.ts";
import { measureMutations, warmUp } from "../src/adversary/mutations/measure.ts";
import { installClockSkew } from "../src/world/clock-skew.ts";

// One shard of the mutation measurement (test/mutations.test.ts starts one process per shard, so
// the worlds' clients, scheduler and oracle get a JavaScript thread each): seeds
// `EDGELOCK_SHARD_SEED` … + `EDGELOCK_SHARD_RUNS` − 1 of every mutation, on the stack the parent
// started (`EDGELOCK_SHARD_REDIS_URL`, `EDGELOCK_SHARD_REST_URL`, `EDGELOCK_SHARD_REST_TOKEN`).
// Prints the rows as one JSON line, last.
const env = (name: string): string => {
  const value = process.env[name];
  if (value === undefined) throw new Error(`mutation-shard: ${name} is not set`);
  return value;
};
const rest = { url: env("EDGELOCK_SHARD_REST_URL"), token: env("EDGELOCK_SHARD_REST_TOKEN") };
// Only what a run on a shared stack reads: Redis's address, the rest-server and its fault rules.
// The parent owns both processes and stops them.
const stack: Stack = {
  redis: { url: env("EDGELOCK_SHARD_REDIS_URL") } as RedisProcess,
  rest,
  faults: new FaultControl(rest.url, rest.token),
  close: async () => undefined,
};
const uninstall = installClockSkew();
try {
  await warmUp(stack);
  const rows = await measureMutations(stack, MUTATIONS, {
    runs: Number(env("EDGELOCK_SHARD_RUNS")),
    parallel: Number(env("EDGELOCK_SHARD_PARALLEL")),
    seed: Number(env("EDGELOCK_SHARD_SEED")),
    backend: env("EDGELOCK_SHARD_BACKEND") === "tcp" ? "tcp" : "rest",
    ...(process.env["EDGELOCK_MUTATION_CONTROL"] === "1" ? { control: true } : {}),
    dumpDir: "/tmp",
  });
  console.log(JSON.stringify(rows));
} finally {
  uninstall();
}
process.exit(0);
