/**
 * A string as Redis receives it: UTF-8 on the wire turns each lone UTF-16 surrogate into U+FFFD,
 * so two strings that differ only there name one and the same key.
 */
export function wireForm(s: string): string {
  return Buffer.from(s, "utf8").toString("utf8");
}

/** Whether `s` is well-formed Unicode (no lone surrogate: a `u` regex sees a pair as one). */
export function isWellFormed(s: string): boolean {
  return !/\p{Cs}/u.test(s);
}
