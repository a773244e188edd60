import { FaultControlError } from "./errors.ts";
import type { FaultRule, ServerStats } from "@edgelock/rest-server";

/** Client of a rest-server's control endpoints (`/__edgelock/*`), authenticated with its token. */
export class FaultControl {
  private readonly base: string;

  constructor(
    restUrl: string,
    private readonly token: string,
  ) {
    this.base = restUrl.replace(/\/+$/, "");
  }

  /** Installs one rule or several, in order. */
  async add(rule: FaultRule | readonly FaultRule[]): Promise<void> {
    await this.call("POST", "/__edgelock/faults", rule);
  }

  /** Removes every rule still active. */
  async clear(): Promise<void> {
    await this.call("DELETE", "/__edgelock/faults");
  }

  /** The rules still active; an armed rule's `times` is what remains of it. */
  async list(): Promise<FaultRule[]> {
    return (await this.call("GET", "/__edgelock/faults")) as FaultRule[];
  }

  async stats(): Promise<ServerStats> {
    return (await this.call("GET", "/__edgelock/stats")) as ServerStats;
  }

  async resetStats(): Promise<void> {
    await this.call("POST", "/__edgelock/stats/reset");
  }

  /** `SCRIPT FLUSH` now, so the next `EVALSHA` answers `NOSCRIPT`. */
  async flushScripts(): Promise<void> {
    await this.call("POST", "/__edgelock/flush-scripts");
  }

  private async call(method: string, path: string, body?: unknown): Promise<unknown> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.token}` };
    const init: RequestInit = { method, headers };
    if (body !== undefined) {
      headers["content-type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    const response = await fetch(`${this.base}${path}`, init);
    const text = await response.text();
    if (!response.ok) throw new FaultControlError(method, path, response.status, text);
    return text === "" ? undefined : (JSON.parse(text) as unknown);
  }
}
