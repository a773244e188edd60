import { readFileSync } from "node:fs";
import type { NodeRedisClient } from "@edgelock/testkit";

const SCRIPT = readFileSync(new URL("./fenced-write.lua", import.meta.url), "utf8");

export interface WriteAnswer {
  readonly accepted: boolean;
  /** The register's own order of writes. */
  readonly order: number;
}

/**
 * The resources critical sections write to: fenced registers in a Redis of their own (never
 * faulted, never restarted), so the lock service losing its data does not reset them.
 */
export class FencedResources {
  constructor(
    private readonly redis: NodeRedisClient,
    private readonly prefix: string,
  ) {}

  async write(resource: string, fence: number): Promise<WriteAnswer> {
    const reply = (await this.redis.sendCommand([
      "EVAL",
      SCRIPT,
      "1",
      this.#key(resource),
      String(fence),
    ])) as number[];
    return { accepted: reply[0] === 1, order: Number(reply[1]) };
  }

  /** The number of writes the register has accepted. */
  async version(resource: string): Promise<number> {
    const reply = (await this.redis.sendCommand(["HGET", this.#key(resource), "v"])) as
      string | null;
    return Number(reply ?? "0");
  }

  #key(resource: string): string {
    return `${this.prefix}:res:${resource}`;
  }
}
