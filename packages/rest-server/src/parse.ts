/** One Redis command as sent to Redis: the name first, then its arguments. */
export type CommandArgs = readonly string[];

/** An entry that could not be turned into a command; it answers with `error`, never reaching Redis. */
export interface InvalidCommand {
  readonly invalid: string;
}

export type ParsedCommand = CommandArgs | InvalidCommand;

export const isInvalid = (command: ParsedCommand): command is InvalidCommand =>
  "invalid" in command;

/** Thrown when a body is not the JSON shape the endpoint expects; answered with 400. */
export class MalformedRequestError extends Error {
  override readonly name = "MalformedRequestError";
}

/** `POST /` body: `["SET", "k", "v"]`. */
export function parseSingleBody(text: string): ParsedCommand {
  const json = parseJson(text);
  if (!Array.isArray(json)) {
    throw new MalformedRequestError(
      'ERR malformed request: expected a JSON array like ["GET", "key"]',
    );
  }
  return toCommand(json);
}

/** `POST /pipeline` and `POST /multi-exec` body: `[["SET", "k", "v"], ["GET", "k"]]`. */
export function parseBatchBody(text: string): ParsedCommand[] {
  const json = parseJson(text);
  if (!Array.isArray(json) || json.length === 0 || !json.every(Array.isArray)) {
    throw new MalformedRequestError(
      "ERR malformed request: expected a non-empty two-dimensional JSON array",
    );
  }
  return json.map((entry: unknown[]) => toCommand(entry));
}

/**
 * Path style, `/set/foo/bar?EX=100`: path segments are the command, query parameters (except
 * `_token`) follow as name/value pairs, and a non-empty body is appended as the last argument —
 * as Upstash's REST API documents it.
 */
export function parsePathCommand(url: URL, bodyText: string): ParsedCommand {
  const args = pathSegments(url.pathname);
  if (args === undefined) {
    return { invalid: "ERR malformed request: invalid percent-encoding in the path" };
  }
  if (bodyText.length > 0) args.push(bodyText);
  for (const [name, value] of url.searchParams) {
    if (name === "_token") continue;
    args.push(name);
    if (value.length > 0) args.push(value);
  }
  return args.length === 0 ? { invalid: "ERR empty command" } : args;
}

/** The decoded, non-empty segments of a path; `undefined` when its percent-encoding is invalid. */
export function pathSegments(pathname: string): string[] | undefined {
  try {
    return pathname
      .split("/")
      .filter((segment) => segment.length > 0)
      .map((segment) => decodeURIComponent(segment));
  } catch {
    return undefined;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new MalformedRequestError("ERR malformed request: body is not valid JSON");
  }
}

// Upstash's client sends strings, numbers and booleans (its serializer JSON-encodes anything
// else into a string first), so those are the argument types accepted here.
function toCommand(entry: readonly unknown[]): ParsedCommand {
  if (entry.length === 0) return { invalid: "ERR empty command" };
  const args: string[] = [];
  for (const [index, value] of entry.entries()) {
    if (typeof value === "string") args.push(value);
    else if (typeof value === "number" && Number.isFinite(value)) args.push(String(value));
    else if (typeof value === "boolean") args.push(String(value));
    else
      return {
        invalid: `ERR invalid argument at position ${index}: expected a string or a number`,
      };
  }
  if (args[0] === "") return { invalid: "ERR empty command name" };
  return args;
}
