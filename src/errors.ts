/** Errors of the tool itself, each with the exit code the CLI ends with. */

export class UsageError extends Error {
  readonly exitCode = 2;
  override name = 'UsageError';
}

export class TargetUnreachableError extends Error {
  readonly exitCode = 3;
  override name = 'TargetUnreachableError';
}

export function exitCodeOf(error: unknown): number {
  if (error instanceof UsageError || error instanceof TargetUnreachableError) return error.exitCode;
  return 4;
}
