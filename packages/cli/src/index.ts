export { main, VERSION, type CliIo } from "./main.ts";
export { CliError, type ExitCode } from "./cli-error.ts";
