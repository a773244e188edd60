/**
 * What a log line may show of a request path: its first segment (the command, or `pipeline`).
 * Later segments are arguments — a subscribe's channel ends with a waiter's owner id, the bearer
 * secret of its hold; a path command carries keys and values — so they never reach a log.
 */
export function loggedPath(path: string): string {
  const second = path.indexOf("/", 1);
  return second < 0 ? path : `${path.slice(0, second)}/…`;
}
