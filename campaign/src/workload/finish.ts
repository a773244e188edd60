import type { SectionRecord } from "../history/types.ts";
import type { Held, SectionSpec } from "./section.ts";
import { pause } from "./pause.ts";
import type { Worker } from "./world.ts";

const UNKNOWN_RELEASE_RETRIES = 20;

/**
 * Releases a section's hold and records how it ended: released (the server confirmed the hold),
 * lost (not held any more), unknown, or refused (a semaphore's over-release).
 */
export async function finishSection(
  worker: Worker,
  section: SectionRecord,
  spec: SectionSpec,
  held: Held,
): Promise<void> {
  const { wc, world } = worker;
  const { recorder } = world;
  for (let attempt = 0; ; attempt++) {
    const outcome = await wc.track(`${spec.primitive} release`, () => held.release());
    if (outcome.ok) return recorder.end(section, "released");
    switch (outcome.code) {
      case "NOT_HELD":
        recorder.tell(section, "release:NOT_HELD");
        return recorder.end(section, "lost");
      case "PERMITS_REFUSED":
        recorder.refusal(section, spec.resources[0]!);
        return recorder.end(section, "refused");
      case "OUTCOME_UNKNOWN":
      case "BACKEND":
        // Unleased permits never run out: repeat the release until it lands (the same operation
        // id after an unknown outcome; a release that did not apply moves to the next id).
        if (spec.retryUnknownRelease && attempt < UNKNOWN_RELEASE_RETRIES) {
          await pause(100 * (attempt + 1));
          continue;
        }
        return recorder.end(section, "unknown");
      default:
        return recorder.end(section, "unknown");
    }
  }
}
