/**
 * The quorum's validity from its databases' leases: the hold stands while a majority of them
 * may still hold it, so its deadline is the `majority`-th latest of their deadlines (monotonic
 * ms; `-Infinity` for a database that does not hold it). With every database confirmed by the
 * same round this is that round's start + lease − drift, Redlock's validity; a database whose
 * renewal is in doubt counts with the earliest deadline that renewal could have set.
 */
export function quorumDeadline(deadlines: readonly number[], majority: number): number {
  const latestFirst = [...deadlines].sort((a, b) => b - a);
  return latestFirst[majority - 1] ?? -Infinity;
}
