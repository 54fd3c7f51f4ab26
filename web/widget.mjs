// `make web` (after build.mjs): bundle web/src/widget.js into chartkit/web/widget.js, the
// notebook widget's ES module (anywidget), with the same pinned Vega packages as view.html
// (their licences are in chartkit/web/THIRD_PARTY_LICENSES.txt).
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, "..", "chartkit", "web", "widget.js");
const built = await esbuild.build({
  entryPoints: [join(here, "src", "widget.js")],
  bundle: true,
  format: "esm",
  platform: "browser",
  target: "es2020",
  minify: true,
  legalComments: "none",
  charset: "utf8",
  metafile: true,
  write: false,
  logLevel: "warning",
  define: { "process.env.NODE_ENV": '"production"' },
});
const versions = {};
for (const input of Object.keys(built.metafile.inputs)) {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
  if (m && !versions[m[1]]) {
    versions[m[1]] = JSON.parse(readFileSync(join(here, "node_modules", m[1], "package.json"), "utf8")).version;
  }
}
const header =
  "// Built by `make web` from web/src/widget.js and web/package-lock.json. Do not edit.\n" +
  `// chartkit-widget-packages: ${JSON.stringify(Object.fromEntries(Object.entries(versions).sort()))}\n`;
writeFileSync(out, header + built.outputFiles[0].text);
console.log(`wrote chartkit/web/widget.js (${(built.outputFiles[0].text.length / 1024).toFixed(0)} KiB, ${Object.keys(versions).length} packages)`);
