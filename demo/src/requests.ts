/** Fires `count` concurrent POSTs at one counter route of the example Worker. */
export async function fireIncrements(
  workerUrl: string,
  counter: string,
  route: "increment" | "increment-unsafe",
  count: number,
): Promise<{ fences: number[]; refused: number }> {
  const responses = await Promise.all(
    Array.from({ length: count }, () =>
      fetch(`${workerUrl}/counters/${counter}/${route}`, { method: "POST" }),
    ),
  );
  const fences: number[] = [];
  let refused = 0;
  for (const response of responses) {
    if (response.status === 423) {
      refused++;
      await response.body?.cancel();
      continue;
    }
    if (!response.ok) throw new Error(`${route}: HTTP ${response.status} ${await response.text()}`);
    const body = (await response.json()) as { fence?: number };
    if (body.fence !== undefined) fences.push(body.fence);
  }
  return { fences, refused };
}

export async function readCounter(workerUrl: string, counter: string): Promise<number> {
  const response = await fetch(`${workerUrl}/counters/${counter}`);
  return ((await response.json()) as { value: number }).value;
}
