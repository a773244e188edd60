// redlock 5.0.0-beta.2 ships types its package.json "exports" does not point to; the part used here.
declare module "redlock" {
  import type { EventEmitter } from "node:events";
  export interface Settings {
    readonly driftFactor: number;
    readonly retryCount: number;
    readonly retryDelay: number;
    readonly retryJitter: number;
    readonly automaticExtensionThreshold: number;
  }
  export class Lock {
    release(): Promise<unknown>;
    extend(duration: number): Promise<Lock>;
  }
  export default class Redlock extends EventEmitter {
    constructor(clients: Iterable<unknown>, settings?: Partial<Settings>);
    acquire(resources: string[], duration: number, settings?: Partial<Settings>): Promise<Lock>;
  }
}
