import { type FormatOptions, formatChecks } from "@ocp/conformance";
import type { CompatibilityReport } from "./report.js";

/** The human form of a report: the target, then every check and the verdict, as `ocp-inspect` prints them. */
export function formatCompatibility(
  report: CompatibilityReport,
  options: FormatOptions = {},
): string {
  const header = `── a2a+ocp ${report.target} ──`;
  const lines = [
    options.color === true ? `\u001b[2m${header}\u001b[0m` : header,
    ...formatChecks(report, options, "compatibility"),
  ];
  return `${lines.join("\n")}\n`;
}
