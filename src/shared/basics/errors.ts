/**
 * Errors as text, one way everywhere: what was thrown (`errorMessage`) and what a zod schema
 * found wrong (`describeIssues`). Neither quotes an input value: an input may hold an API key.
 */

/** The message of anything thrown: an Error's own message, anything else as text. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** What `describeIssues` reads of a zod issue (zod's `$ZodIssue` has both). */
export interface IssueLike {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

export interface DescribeOptions {
  /** Name each issue by its path ("animal.name: …"); false gives the messages alone. Default true. */
  paths?: boolean;
  /** The name of an issue with an empty path (the whole value, e.g. "row"); default: the message alone. */
  root?: string;
  /** At most this many issues. */
  max?: number;
  /** Words of one's own for an issue (a file format that numbers its entries, say). */
  describe?: (issue: IssueLike) => string;
}

/** "animal.name: name is required; query.limit: limit must be at most 100". */
export function describeIssues(issues: readonly IssueLike[], options: DescribeOptions = {}): string {
  const describe =
    options.describe ??
    ((issue: IssueLike) => {
      if (options.paths === false) return issue.message;
      const path = issue.path.map(String).join('.') || options.root;
      return path ? `${path}: ${issue.message}` : issue.message;
    });
  return issues
    .slice(0, options.max ?? issues.length)
    .map(describe)
    .join('; ');
}
