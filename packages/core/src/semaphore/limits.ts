/** Largest permit count accepted in one call; keeps every count an exact integer in Lua. */
export const MAX_PERMITS = 1_000_000_000;
