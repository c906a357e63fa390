// What run validation reports, in a module of its own: the official checkers' port
// (checker-2023-2024.ts) and the validators (validate.ts, validate-2025.ts) all make findings, and
// validate.ts runs the checkers' port, so the type sits below both.

/**
 * One finding: errors make the run invalid (exit 2), except the two the official 2023/2024
 * checkers log as ERROR and pass (0 turns; a topics file of the wrong turn count): the verdict is
 * `Judgement.valid` (validate.ts). Warnings are reported and pass.
 */
export interface Finding {
  /** The 1-based line of the run file it concerns, where known. */
  line?: number;
  level: "error" | "warning";
  /** The turn it concerns (`9-1_3`), absent for the whole run. */
  turn?: string;
  message: string;
}
