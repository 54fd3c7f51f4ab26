// `make web`: bundle web/src/view.js into one self-contained page, chartkit/web/view.html, with
// the bundled packages' versions (checked by tests/test_mcp_apps.py against package-lock.json)
// and their licence texts; and the test-only MCP Apps host, tests/mcp_host/host.js.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, "..");
const out = join(repo, "chartkit", "web");
const version = /^version = "([^"]+)"/m.exec(readFileSync(join(repo, "pyproject.toml"), "utf8"))[1];

const common = {
  bundle: true,
  format: "iife",
  platform: "browser",
  target: "es2020",
  minify: true,
  legalComments: "none",
  charset: "utf8",
  metafile: true,
  write: false,
  logLevel: "warning",
  define: { "process.env.NODE_ENV": '"production"' },
};

function packagesOf(metafile) {
  const names = new Set();
  for (const input of Object.keys(metafile.inputs)) {
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (m) names.add(m[1]);
  }
  return [...names].sort();
}

function licenceText(name) {
  const dir = join(here, "node_modules", name);
  const file = readdirSync(dir).find((f) => /^(licen[cs]e|copying)(\.|$)/i.test(f));
  if (!file) throw new Error(`${name} ships no licence file; cannot bundle it`);
  return readFileSync(join(dir, file), "utf8").trim();
}

const view = await esbuild.build({
  ...common,
  entryPoints: [join(here, "src", "view.js")],
  define: { ...common.define, __VERSION__: JSON.stringify(version) },
});
let script = view.outputFiles[0].text.replaceAll("__VERSION__", version);
script = script.replace(/<\/(script)/gi, "<\\/$1").replace(/<!--/g, "<\\!--");
const lock = readFileSync(join(here, "package-lock.json"));
const bundled = {};
for (const name of packagesOf(view.metafile)) {
  bundled[name] = JSON.parse(readFileSync(join(here, "node_modules", name, "package.json"), "utf8")).version;
}
const sources = createHash("sha256");
for (const name of readdirSync(join(here, "src")).sort()) {
  sources.update(name).update(readFileSync(join(here, "src", name)));
}
const build = {
  lockSha256: createHash("sha256").update(lock).digest("hex"),
  sourceSha256: sources.digest("hex"),
  packages: bundled,
};
const meta = `<meta name="chartkit-build" content="${JSON.stringify(build).replace(/"/g, "&quot;")}">`;
const template = readFileSync(join(here, "src", "view.html"), "utf8");
if (!template.includes("<!--BUILD-->") || !template.includes("/*SCRIPT*/")) {
  throw new Error("web/src/view.html lost its <!--BUILD--> or /*SCRIPT*/ marker");
}
const page = template.replace("<!--BUILD-->", () => meta).replace("/*SCRIPT*/", () => script);
mkdirSync(out, { recursive: true });
writeFileSync(join(out, "view.html"), page);

const licences = [
  "Third-party software bundled into chartkit/web/view.html (built by `make web` from",
  "web/package-lock.json). Each package's licence text follows.",
  "",
];
for (const [name, v] of Object.entries(bundled)) {
  licences.push("=".repeat(78), `${name} ${v}`, "-".repeat(78), licenceText(name), "");
}
writeFileSync(join(out, "THIRD_PARTY_LICENSES.txt"), licences.join("\n"));

const host = await esbuild.build({ ...common, entryPoints: [join(here, "src", "test_host.js")] });
const hostDir = join(repo, "tests", "mcp_host");
if (!existsSync(hostDir)) mkdirSync(hostDir, { recursive: true });
writeFileSync(
  join(hostDir, "host.js"),
  "// Built by `make web` from web/src/test_host.js (test-only). Do not edit.\n" + host.outputFiles[0].text,
);
console.log(
  `wrote chartkit/web/view.html (${(page.length / 1024).toFixed(0)} KiB, ${Object.keys(bundled).length} packages), ` +
    `chartkit/web/THIRD_PARTY_LICENSES.txt, tests/mcp_host/host.js (${(host.outputFiles[0].text.length / 1024).toFixed(0)} KiB)`,
);
