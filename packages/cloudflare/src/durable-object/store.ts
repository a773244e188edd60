import type { DurableObjectStorageLike } from "../cf-types.ts";
import { nextWake, RECORD_KEY, type KeptLease } from "./record.ts";

/** The object's storage, narrowed to its one record and its one alarm. */
export function leaseStore(storage: DurableObjectStorageLike) {
  return {
    get: () => storage.get<KeptLease>(RECORD_KEY),
    put: (rec: KeptLease) => storage.put(RECORD_KEY, rec),
    /** Arms the alarm for whatever is due next; never in the past (local workerd drops `setAlarm(now)` inside `alarm()`). */
    async arm(rec: KeptLease): Promise<void> {
      await storage.setAlarm(Math.max(nextWake(rec), Date.now() + 1));
    },
    disarm: () => storage.deleteAlarm(),
    nextAlarm: () => storage.getAlarm(),
  };
}

export type LeaseStore = ReturnType<typeof leaseStore>;
