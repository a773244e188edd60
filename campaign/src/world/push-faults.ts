import type { Backend } from "@edgelock/core";

/**
 * A worker's push as the fault driver bends it. A stream's messages can be late like any
 * answer (a slow edge, a buffering proxy), and a cut connection loses what was in flight: the
 * core must then never enter on a grant that lapsed, nor count one from its message's arrival.
 */
export interface PushFaults {
  /** How late each message arrives, ms (0: on time). Messages keep their order. */
  delayMs: number;
  /** The next message is lost and its stream ends, as a dropped connection does. */
  cutNext: boolean;
  /**
   * Once a message has arrived, the worker's requests fail unsent for this long, ms (0: never):
   * the stream got through, the request path did not, so a grant entered on the message is never
   * claimed and its holder must learn it lapsed before anyone else gets in.
   */
  cutOffMs: number;
  /** `performance.now()` until which requests fail (set when a message arrives). */
  cutOffUntil: number;
}

/**
 * What the workers' streams carried: messages delivered, delivered late, lost with a cut, and
 * followed by a cut-off of the worker's requests.
 */
export interface PushCounts {
  messages: number;
  delayed: number;
  lost: number;
  cutOff: number;
}

export function emptyPushCounts(): PushCounts {
  return { messages: 0, delayed: 0, lost: 0, cutOff: 0 };
}

export function onTimePush(): PushFaults {
  return { delayMs: 0, cutNext: false, cutOffMs: 0, cutOffUntil: 0 };
}

/** Whether the worker's requests fail now (a cut-off after a message). */
export function cutOff(faults: PushFaults): boolean {
  return faults.cutOffUntil > performance.now();
}

/**
 * The backend's `subscribe` and `psubscribe` (both: a client shares one pattern stream per name
 * among its waiters, the default over REST, and falls back to a stream per waiter without
 * patterns), each message held back or lost as `faults` says at the time it comes.
 */
export function faultyPush(
  inner: Backend,
  faults: PushFaults,
  counts: PushCounts,
): Pick<Backend, "subscribe" | "psubscribe"> {
  const bend = (lines: AsyncIterable<string>): AsyncIterable<string> =>
    (async function* () {
      for await (const line of lines) {
        if (line.startsWith("message,") || line.startsWith("pmessage,")) {
          if (faults.cutNext) {
            faults.cutNext = false;
            counts.lost++;
            return;
          }
          const delayMs = faults.delayMs;
          if (delayMs > 0) {
            counts.delayed++;
            await new Promise((resolve) => setTimeout(resolve, delayMs));
          }
          counts.messages++;
          if (faults.cutOffMs > 0) {
            faults.cutOffUntil = performance.now() + faults.cutOffMs;
            counts.cutOff++;
          }
        }
        yield line;
      }
    })();
  const out: Pick<Backend, "subscribe" | "psubscribe"> = {};
  const { subscribe, psubscribe } = inner;
  if (subscribe) out.subscribe = (channel, signal) => bend(subscribe.call(inner, channel, signal));
  if (psubscribe)
    out.psubscribe = (pattern, signal) => bend(psubscribe.call(inner, pattern, signal));
  return out;
}
