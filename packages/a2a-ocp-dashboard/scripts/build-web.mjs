#!/usr/bin/env node
// Bundles the dashboard page (web/) into dist/web with esbuild: app.js (the
// page and its libraries, uPlot and d3-force), app.css (ours and uPlot's) and
// index.html. Nothing is fetched at run time.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "dist", "web");
mkdirSync(out, { recursive: true });
await build({
  entryPoints: [join(root, "web", "main.ts")],
  outfile: join(out, "app.js"),
  bundle: true,
  format: "esm",
  target: "es2022",
  minify: true,
  legalComments: "eof",
  logLevel: "warning",
});
const require = createRequire(import.meta.url);
const uplotCss = readFileSync(join(dirname(require.resolve("uplot")), "uPlot.min.css"), "utf8");
writeFileSync(
  join(out, "app.css"),
  `${uplotCss}\n${readFileSync(join(root, "web", "style.css"), "utf8")}`,
);
copyFileSync(join(root, "web", "index.html"), join(out, "index.html"));
