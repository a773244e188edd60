import { cpus, loadavg } from "node:os";

/** What the report says about where it ran: results on a shared 2-core box are noisy. */
export interface Machine {
  readonly cores: number;
  readonly cpu: string;
  readonly node: string;
  readonly date: string;
  readonly loadBefore: readonly number[];
}

export function describeMachine(): Machine {
  return {
    cores: cpus().length,
    cpu: cpus()[0]?.model.trim() ?? "unknown",
    node: process.version,
    date: new Date().toISOString().replace(/\.\d+Z$/, "Z"),
    loadBefore: loadavg(),
  };
}
