import { execFile } from "node:child_process";
import { join } from "node:path";

const BIN = join(import.meta.dirname, "../src/bin.ts");

/** Spawns the real `edgelock` entry (through tsx) with exactly `env`; resolves with its outcome. */
export function runCli(
  args: readonly string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--import", "tsx", BIN, ...args],
      { env: { PATH: process.env["PATH"] ?? "", ...env }, cwd: join(import.meta.dirname, "..") },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}
