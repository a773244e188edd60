import type { NodeRedisClient } from "@edgelock/testkit";
import type { Recorder } from "../history/recorder.ts";

/**
 * Detects a data loss: a key written straight to the lock service's Redis before a restart. If it
 * is gone afterwards, Redis came back without its data, and the history records a data loss over
 * the restart, the only window in which the checker relaxes mutual exclusion.
 */
export class Canary {
  constructor(
    private readonly redis: NodeRedisClient,
    private readonly key: string,
  ) {}

  async plant(): Promise<void> {
    await this.redis.sendCommand(["SET", this.key, "1"]);
  }

  /** True when the canary is gone: records the data loss (from `sinceSeq`) and plants it again. */
  async check(recorder: Recorder, sinceSeq: number, detail: string): Promise<boolean> {
    const value = await this.redis.sendCommand(["GET", this.key]);
    if (value !== null) return false;
    recorder.dataLoss(sinceSeq, detail);
    await this.plant();
    return true;
  }
}
