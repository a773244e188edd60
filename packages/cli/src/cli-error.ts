/** Exit codes: 0 done, 1 the operation failed or found nothing, 2 the command line or environment is wrong. */
export type ExitCode = 0 | 1 | 2;

/** A failure to report as one line on stderr, with its exit code. */
export class CliError extends Error {
  readonly exitCode: ExitCode;
  constructor(message: string, exitCode: ExitCode) {
    super(message);
    this.name = "CliError";
    this.exitCode = exitCode;
  }
}

export const usageError = (message: string) =>
  new CliError(`${message}\nRun "edgelock --help" for usage.`, 2);
