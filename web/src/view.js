// chartkit's view page: one renderer for View payloads, two doors (an MCP Apps host, or a page
// opened on its own). Every string from a payload or a tool result reaches the DOM through
// textContent or setAttribute, never as markup.
import { loader as vegaLoader } from "vega";
import vegaEmbed from "vega-embed";
import { expressionInterpreter } from "vega-interpreter";
import { ViewBridge } from "./bridge.js";

const KINDS = ["chart", "table", "refused"];
const messages = document.getElementById("messages");
const errors = document.getElementById("errors");
const statusLine = document.getElementById("status");
const empty = document.getElementById("empty");
const drawn = []; // {target, spec, article}: re-drawn when the theme changes
const views = [];
let theme = "light";

// -- small DOM helpers ----------------------------------------------------------------------

function el(tag, attrs, children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null) continue;
    if (key === "text") node.textContent = String(value);
    else node.setAttribute(key, String(value));
  }
  for (const child of children || []) if (child) node.appendChild(child);
  return node;
}

function text(value) {
  if (value === null || value === undefined) return "—";
  return typeof value === "string" ? value : JSON.stringify(value);
}

// A count as chartkit writes every count, in every surface: with thousands separators (2,056),
// as Python's f"{n:,}" does. Anything that is not a whole number is shown as text() shows it.
function count(n) {
  return Number.isInteger(n) ? n.toLocaleString("en-US") : text(n);
}

function plural(n, one, many) {
  return `${count(n)} ${n === 1 ? one : many}`;
}

function setState(state) {
  document.body.dataset.state = state;
}

function showError(message) {
  errors.appendChild(el("p", { class: "error", text: message }));
  setState("error");
}

function clearErrors() {
  errors.replaceChildren();
}

// -- rendering a View payload ---------------------------------------------------------------

function isPayload(value) {
  return (
    value !== null &&
    typeof value === "object" &&
    !Array.isArray(value) &&
    KINDS.includes(value.kind) &&
    typeof value.reason === "string"
  );
}

function violationList(v) {
  if (!v || typeof v !== "object") return null;
  const missing = v.kind === "missing-column";
  const rows = [
    ["column", v.column],
    ["declared", `${text(v.declared)}${v.nullable ? " (nullable)" : " (not nullable)"}`],
    ["check", v.kind],
    ["offending rows", missing ? `none of ${count(v.total)} rows has the column` : `${count(v.affected)} of ${count(v.total)}`],
    ["holding nothing", count(v.absent)],
    ["first offender", missing ? "(absent)" : `${JSON.stringify(v.sample) ?? "—"} (${text(v.sampleType)})`],
    ["offending types", Array.isArray(v.offendingTypes) && v.offendingTypes.length ? v.offendingTypes.map(text).join(", ") : "—"],
  ];
  const dl = el("dl", { class: "violation" });
  for (const [term, value] of rows) {
    dl.appendChild(el("dt", { text: term }));
    dl.appendChild(el("dd", { text: text(value) }));
  }
  return dl;
}

function section(cls, title, items) {
  if (!items.length) return null;
  return el("section", { class: cls }, [el("h3", { text: title }), ...items]);
}

function smallTable(head, rows) {
  const table = el("table", {}, [el("tr", {}, head.map((h) => el("th", { text: h })))]);
  for (const row of rows) table.appendChild(el("tr", {}, row.map((c) => el("td", { text: text(c) }))));
  return table;
}

function list(value) {
  return Array.isArray(value) ? value : [];
}

function verdict(payload) {
  const findings = list(payload.findings).length;
  if (payload.kind === "refused") return ["refused", "Refused: no data was returned."];
  const shown = payload.kind === "chart" ? "a chart" : "a table";
  if (findings) return ["findings", `${plural(findings, "finding", "findings")} — shown as ${shown}.`];
  if (payload.mode === "off") return ["unchecked", `Not checked (the dial is off) — shown as ${shown}.`];
  if (payload.status === "ok") return ["passes", `Passes its declaration — shown as ${shown}.`];
  return ["unchecked", `Shown as ${shown}.`];
}

// "ok" means the rows were delivered, not that they passed: findings colour it as a warning.
function statusBadge(payload) {
  const delivered = payload.status === "ok";
  const warned = delivered && list(payload.findings).length > 0;
  return el("span", {
    class: `badge status-${warned ? "warn" : payload.status}`,
    text: delivered ? "delivered" : payload.status,
  });
}

function render(payload, extras = {}) {
  if (!isPayload(payload)) {
    throw new Error("this is not a chartkit View payload (it needs kind chart, table or refused, and a reason)");
  }
  const [state, sentence] = verdict(payload);
  const article = el("article", { class: `message kind-${payload.kind}`, "data-kind": payload.kind });
  article.appendChild(
    el("header", {}, [
      el("span", { class: "tool", text: payload.tool ?? "tool result" }),
      payload.callId ? el("span", { class: "call-id", text: `call ${payload.callId}` }) : null,
      el("span", { class: `badge kind-${payload.kind}`, text: payload.kind }),
      payload.mode ? el("span", { class: "badge mode", text: `check: ${payload.mode}` }) : null,
      payload.status ? statusBadge(payload) : null,
    ]),
  );
  article.appendChild(el("p", { class: `verdict ${state}`, text: sentence }));
  article.appendChild(el("p", { class: "reason", text: payload.reason }));
  const slot = el("div", { class: "chart-slot" });
  article.appendChild(slot);

  const findings = list(payload.findings).map((f) =>
    el("div", { class: "finding", "data-kind": f?.kind, "data-column": f?.column }, [
      el("p", { class: "finding-message", text: f?.message }),
      violationList(f?.violation),
    ]),
  );
  const findingsBlock = section("findings", plural(findings.length, "finding", "findings"), findings);
  if (findingsBlock) article.appendChild(findingsBlock);

  const refusals = list(payload.refusals).map((r) =>
    el("div", { class: "refusal", "data-channel": r?.channel, "data-column": r?.column }, [
      el("p", { class: "refusal-reason", text: `Refused ${text(r?.channel)} axis — ${text(r?.reason)}` }),
      violationList(r?.violation),
    ]),
  );
  const refusalsBlock = section("refusals", "Refused axes", refusals);
  if (refusalsBlock) article.appendChild(refusalsBlock);

  const notes = list(payload.notes).map((n) => el("li", { text: text(n) }));
  if (notes.length) article.appendChild(section("notes", "Notes", [el("ul", { class: "notes" }, notes)]));

  const alternatives = list(payload.alternatives).filter((a) => a && typeof a === "object");
  if (alternatives.length) {
    const items = alternatives.map((a) => {
      const picks = a.picks && typeof a.picks === "object" ? Object.entries(a.picks) : [];
      const said = picks.length ? ` (${picks.map(([k, v]) => `${k}: ${text(v)}`).join(", ")})` : "";
      return el("li", { text: `${text(a.chart)}${said} — ${text(a.reason)}` });
    });
    article.appendChild(
      el("details", { class: "alternatives" }, [
        el("summary", { text: `Other charts of these rows (${count(alternatives.length)})` }),
        el("ul", { class: "notes" }, items),
      ]),
    );
  }

  const encodings = payload.encodings && typeof payload.encodings === "object" ? payload.encodings : {};
  const channels = Object.keys(encodings);
  if (channels.length) {
    article.appendChild(
      el("details", { class: "encodings" }, [
        el("summary", { text: "Encodings: where each axis type came from" }),
        smallTable(["channel", "encoding", "source"], channels.map((ch) => [ch, encodings[ch]?.description, encodings[ch]?.source])),
      ]),
    );
  }
  const disposition = list(payload.disposition);
  if (disposition.length) {
    article.appendChild(
      el("details", { class: "disposition" }, [
        el("summary", { text: "Disposition" }),
        smallTable(
          ["check", "checked", "findings", "not applicable"],
          disposition.map((d) => [d?.check, d?.checked, d?.findings, d?.notApplicable]),
        ),
      ]),
    );
  }
  messages.appendChild(article);
  empty.hidden = true;
  return drawChart(slot, article, payload, extras);
}

// -- the chart ------------------------------------------------------------------------------

// Vega may load nothing: the data a chart draws is the data inside the payload.
const offline = vegaLoader();
offline.sanitize = (uri) =>
  Promise.reject(new Error(`chartkit's view loads nothing from outside the payload (asked for ${String(uri).slice(0, 80)})`));

function embedOptions() {
  return {
    renderer: "svg",
    actions: false,
    mode: "vega-lite",
    ast: true,
    expr: expressionInterpreter,
    loader: offline,
    theme: theme === "dark" ? "dark" : undefined,
    config: { background: null },
  };
}

const MAX_COLUMNS = 40;

// A table View's rows, when the host handed them over (the result's _meta): every cell as text,
// a key the row does not have shown apart from a null.
function rowsTable(table) {
  const rows = list(table?.rows).filter((r) => r && typeof r === "object" && !Array.isArray(r));
  if (!rows.length) return null;
  const columns = [];
  for (const row of rows) {
    for (const key of Object.keys(row)) if (!columns.includes(key) && columns.length < MAX_COLUMNS) columns.push(key);
  }
  const total = Number.isInteger(table.total) ? table.total : rows.length;
  const caption = total > rows.length ? `The first ${count(rows.length)} of ${count(total)} rows, as returned` : `${plural(rows.length, "row", "rows")}, as returned`;
  const head = el("tr", {}, columns.map((c) => el("th", { text: c })));
  const body = rows.map((row) =>
    el(
      "tr",
      {},
      columns.map((c) =>
        Object.prototype.hasOwnProperty.call(row, c)
          ? el("td", { text: row[c] === null ? "null" : typeof row[c] === "string" ? row[c] : JSON.stringify(row[c]), class: row[c] === null ? "null" : undefined })
          : el("td", { class: "absent", text: "(absent)" }),
      ),
    ),
  );
  return el("div", { class: "rows" }, [el("table", {}, [el("caption", { text: caption }), head, ...body])]);
}

function drawChart(slot, article, payload, extras = {}) {
  const spec = payload.spec;
  const table = payload.kind === "table" ? rowsTable(extras.rows) : null;
  if (table) {
    slot.appendChild(table);
    article.dataset.state = "table";
    return Promise.resolve(null);
  }
  if (spec === null || spec === undefined) {
    slot.appendChild(
      el("p", {
        class: "no-chart",
        text:
          payload.kind === "refused"
            ? "No chart: the result was refused, and no data was returned."
            : "No chart: this result is shown as a table (the payload carries no rows).",
      }),
    );
    article.dataset.state = "no-chart";
    return Promise.resolve(null);
  }
  if (typeof spec !== "object" || Array.isArray(spec)) {
    slot.appendChild(el("p", { class: "error", text: "The chart could not be drawn: its spec is not a JSON object." }));
    article.dataset.state = "error";
    return Promise.resolve(null);
  }
  const url = outsideUrl(spec, 0);
  if (url !== null) {
    slot.appendChild(
      el("p", {
        class: "error",
        text: `The chart could not be drawn: its spec asks for data from outside the payload (${url.slice(0, 80)}), and chartkit's view loads nothing.`,
      }),
    );
    article.dataset.state = "error";
    return Promise.resolve(null);
  }
  // Vega writes the description as the chart's aria-label: the reason says what it shows.
  // usermeta.embedOptions would let a spec change how it is embedded (eval, loaders): dropped.
  const { usermeta: _ignored, ...own } = spec;
  const described = { ...own, description: typeof spec.description === "string" ? spec.description : payload.reason };
  const target = el("div", { class: "chart" });
  slot.appendChild(target);
  const drill = drillOf(extras.drill, payload, article, described);
  const entry = { target, spec: drill?.brush ? withBrush(described) : described, article, view: null, drill };
  drawn.push(entry);
  return embed(entry);
}

// The first "url" a spec holds (data, images, projections), or null: chartkit's specs hold none.
function outsideUrl(value, depth) {
  if (depth > 64 || value === null || typeof value !== "object") return null;
  if (!Array.isArray(value) && typeof value.url === "string") return value.url;
  for (const item of Array.isArray(value) ? value : Object.values(value)) {
    const found = outsideUrl(item, depth + 1);
    if (found !== null) return found;
  }
  return null;
}

function embed(entry) {
  return vegaEmbed(entry.target, entry.spec, embedOptions())
    .then((result) => {
      if (entry.view) {
        const at = views.indexOf(entry.view);
        if (at >= 0) views.splice(at, 1);
        entry.view.finalize();
      }
      entry.view = result.view;
      views.push(result.view);
      if (entry.drill?.clickable) listenForMarks(entry);
      if (entry.drill?.brush) listenForBrush(entry);
      entry.article.dataset.state = "drawn";
      return result.view;
    })
    .catch((err) => {
      entry.target.replaceChildren(el("p", { class: "error", text: `The chart could not be drawn: ${err?.message ?? err}` }));
      entry.article.dataset.state = "error";
      return null;
    });
}

function applyTheme(next) {
  const value = next === "dark" ? "dark" : "light";
  document.documentElement.dataset.theme = value;
  if (value === theme) return Promise.resolve();
  theme = value;
  return Promise.all(drawn.map(embed));
}

// -- the rows behind a mark (MCP Apps hosts that proxy tool calls) --------------------------
//
// A chart the server keeps comes with _meta["chartkit/drill"]: its handle and the app-only
// tool that answers the rows behind a mark. What can be selected is the payload's own `drill`
// (View.to_dict()["drill"]): its marks and keys say a mark can be clicked, its `brushable`
// fields which axis a brush may range over. Clicking a mark (or brushing the x axis) asks that
// tool (through the host) for the rows behind it, shows them (every value as text, offending
// cells marked, the most frequent offending values counted) and tells the model what the user
// selected (ui/update-model-context), in the server's own words.

let bridge = null;
const DATUM_FIELDS = 64;
const MARKS = ["rect", "symbol", "arc", "text", "rule"]; // a clickable item is one mark
const PATHS = ["line", "area", "trail"]; // one path over many marks: a click names none of them

function drillOf(handle, payload, article, spec) {
  if (!bridge || !bridge.canCallServerTools()) return null;
  if (!handle || typeof handle !== "object" || typeof handle.chart !== "string" || typeof handle.tool !== "string") return null;
  const drill = payload.drill;
  if (!drill || typeof drill !== "object" || Array.isArray(drill)) return null; // no marks to select
  const keys = list(drill.keys).filter((k) => k && typeof k === "object" && typeof k.field === "string");
  const clickable = Number.isInteger(drill.marks) && drill.marks > 0 && keys.length > 0 && !PATHS.includes(payload.mark);
  const brush = brushAxis(spec, list(drill.brushable), keys);
  const leftOut = Number.isInteger(payload.leftOut) ? payload.leftOut : 0;
  if (!clickable && !brush && leftOut === 0) return null;
  const panel = el("section", { class: "behind", hidden: "" });
  const found = { chart: handle.chart, tool: handle.tool, panel, asked: 0, clickable, brush, timer: null };
  article.querySelector(".chart-slot").after(panel);
  if (leftOut > 0) {
    const button = el("button", {
      type: "button",
      class: "left-out",
      text: `Show the ${plural(leftOut, "row", "rows")} left out of the chart`,
    });
    button.addEventListener("click", () => askRows(found, { leftOut: true }));
    panel.before(el("p", { class: "drill-actions" }, [button]));
  }
  if (clickable || brush) {
    article.classList.add("drillable");
    const hint = clickable && brush
      ? "Click a mark, or drag across the chart, to see the rows behind it."
      : clickable
        ? "Click a mark to see the rows behind it."
        : "Drag across the chart to see the rows behind a range.";
    article.querySelector(".chart-slot").appendChild(el("p", { class: "drill-hint", text: hint }));
  }
  return found;
}

const BRUSH = "chartkit_brush";

// The x axis a brush ranges over: the spec's x field when the payload's drill names it
// brushable (dates or numbers the chart places, not aggregated), on a one-view chart (a brush
// is a parameter of one view). Its type is the drill key's: dates are sent as the wall clock.
function brushAxis(spec, brushable, keys) {
  if (!spec || typeof spec !== "object" || spec.layer || spec.facet || spec.concat || spec.hconcat || spec.vconcat || spec.repeat) return null;
  const x = spec.encoding?.x;
  if (!x || typeof x.field !== "string" || !brushable.includes(x.field)) return null;
  const key = keys.find((k) => k.field === x.field);
  const type = key ? key.type : x.type;
  if (type !== "temporal" && type !== "quantitative") return null;
  return { field: x.field, type };
}

function withBrush(spec) {
  const params = Array.isArray(spec.params) ? spec.params : [];
  return { ...spec, params: [...params, { name: BRUSH, select: { type: "interval", encodings: ["x"] } }] };
}

// A time as the chart holds it: the wall clock Vega read the spec's zone-less ISO text as.
function wallClock(value) {
  const d = value instanceof Date ? value : new Date(value);
  const two = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}.${String(d.getMilliseconds()).padStart(3, "0")}`;
}

function listenForBrush(entry) {
  const drill = entry.drill;
  entry.view.addSignalListener(BRUSH, (_name, value) => {
    clearTimeout(drill.timer);
    const bounds = value && typeof value === "object" ? value[drill.brush.field] : null;
    if (!Array.isArray(bounds) || bounds.length !== 2) return; // a cleared brush asks nothing
    if (Number(bounds[0]) === Number(bounds[1])) return; // a click, not a range: the mark answers
    // Ask once the brush rests, not at every step of the drag.
    drill.timer = setTimeout(() => {
      const range = drill.brush.type === "temporal" ? bounds.map(wallClock) : bounds.map(Number);
      askRows(drill, { interval: { [drill.brush.field]: range } });
    }, 300);
  });
}

function listenForMarks(entry) {
  entry.view.addEventListener("click", (_event, item) => {
    if (!item || !item.mark || item.mark.role !== "mark" || !item.datum || typeof item.datum !== "object") return;
    if (String(item.mark.name || "").startsWith(BRUSH)) return; // the brush's own rectangle
    // A line or an area is one path over many marks: a click on it names no single one.
    if (!MARKS.includes(item.mark.marktype)) return;
    askRows(entry.drill, { datum: plainDatum(item.datum) });
  });
}

// The clicked mark's own fields, as plain JSON values: what the server matches to its marks.
function plainDatum(datum) {
  const out = {};
  for (const key of Object.keys(datum).slice(0, DATUM_FIELDS)) {
    const value = datum[key];
    if (value === null || ["string", "number", "boolean"].includes(typeof value)) out[key] = value;
    else if (value instanceof Date) out[key] = wallClock(value); // as the spec wrote it
  }
  return out;
}

function askRows(drill, selection, offset = 0) {
  const asked = ++drill.asked;
  const panel = drill.panel;
  panel.hidden = false;
  panel.dataset.state = "loading";
  if (offset === 0) {
    panel.replaceChildren(el("p", { class: "behind-status", text: "Asking the server for the rows behind this selection…" }));
  } else {
    panel.querySelector("button.more")?.remove();
  }
  return bridge
    .callServerTool(drill.tool, { chart: drill.chart, selection, offset })
    .then((result) => {
      if (asked !== drill.asked) return; // a newer selection was asked for meanwhile
      if (result?.isError || !result?.structuredContent || !Array.isArray(result.structuredContent.rows)) {
        throw new Error(contentText(result) || "the server answered no rows");
      }
      const chunk = result.structuredContent;
      showChunk(drill, selection, chunk);
      panel.dataset.state = "shown";
      if (offset === 0) tellModel(drill, chunk);
    })
    .catch((err) => {
      if (asked !== drill.asked) return;
      panel.querySelector(".behind-status")?.remove();
      panel.appendChild(el("p", { class: "error", text: `Could not show the rows behind this selection: ${err?.message ?? err}` }));
      panel.dataset.state = "error";
    });
}

function cellText(value) {
  if (value === null || value === undefined) return "null";
  return typeof value === "string" ? value : JSON.stringify(value);
}

function showChunk(drill, selection, chunk) {
  const panel = drill.panel;
  const columns = list(chunk.columns);
  const rows = list(chunk.rows);
  let table = panel.querySelector("table.behind-rows");
  if (chunk.offset === 0 || !table) {
    const total = Number.isInteger(chunk.total) ? chunk.total : rows.length;
    const bad = columns.filter((c) => Number.isInteger(c?.offending) && c.offending > 0);
    const said = bad.length
      ? `; cells that break the declaration: ${bad.map((c) => `${text(c.name)} ${count(c.offending)}`).join(", ")}`
      : "";
    const head = el("tr", {}, [el("th", { text: "row" }), ...columns.map((c) => el("th", { text: text(c?.name), title: c?.declared ? `declared ${c.declared}` : "not declared" }))]);
    table = el("table", { class: "behind-rows" }, [el("caption", { class: "behind-caption" }), head]);
    const left = Number.isInteger(chunk.columnsLeftOut) && chunk.columnsLeftOut > 0
      ? el("p", { class: "behind-note", text: `${plural(chunk.columnsLeftOut, "more column is", "more columns are")} not shown.` })
      : null;
    const parts = [
      el("h3", { class: "behind-title", text: `Rows behind ${text(chunk.selection)}` }),
      el("p", { class: "behind-summary", text: `${plural(total, "row", "rows")} behind this selection${said}.` }),
      offendingValues(chunk.offendingValues),
      el("div", { class: "rows" }, [table]),
      left,
    ];
    panel.replaceChildren(...parts.filter(Boolean));
    panel.dataset.total = String(total);
  }
  for (const row of rows) {
    const offends = new Set(list(row?.offending));
    const cells = list(row?.cells);
    const tr = el("tr", {}, [el("td", { class: "index", text: Number.isInteger(row?.index) ? `#${row.index + 1}` : "" })]);
    columns.forEach((c, j) => {
      const value = cells[j];
      const bad = offends.has(j);
      tr.appendChild(
        el("td", {
          text: cellText(value),
          class: [bad ? "offends" : null, value === null ? "null" : null].filter(Boolean).join(" ") || undefined,
          title: bad ? `breaks the declaration: declared ${text(c?.declared)}${c?.nullable ? " (nullable)" : ""}` : undefined,
          "data-offends": bad ? "true" : undefined,
        }),
      );
    });
    table.appendChild(tr);
  }
  const shown = table.querySelectorAll("tr").length - 1;
  const total = Number(panel.dataset.total);
  table.querySelector("caption").textContent = shown < total ? `The first ${count(shown)} of ${count(total)} rows, as the tool returned them` : `${plural(shown, "row", "rows")}, as the tool returned them`;
  if (Number.isInteger(chunk.next)) {
    const more = el("button", { type: "button", class: "more", text: "Show more rows" });
    more.addEventListener("click", () => askRows(drill, selection, chunk.next));
    panel.appendChild(more);
  }
}

// The most frequent offending values of each column among the rows behind the selection (the
// server's check of just those rows, in its words), each as text.
function offendingValues(listed) {
  const items = list(listed)
    .filter((o) => o && typeof o === "object" && typeof o.column === "string" && typeof o.values === "string")
    .map((o) => el("li", { "data-column": o.column }, [el("span", { class: "column", text: o.column }), el("span", { text: `: ${o.values}` })]));
  if (!items.length) return null;
  return el("div", { class: "behind-offenders" }, [
    el("p", { text: "Offending values among these rows, the most frequent first:" }),
    el("ul", {}, items),
  ]);
}

function tellModel(drill, chunk) {
  if (!bridge.canUpdateModelContext() || typeof chunk.modelContext !== "string") return;
  bridge
    .updateModelContext({
      content: [{ type: "text", text: chunk.modelContext }],
      structuredContent: {
        tool: chunk.tool,
        selection: chunk.selection,
        total: chunk.total,
        offenders: Object.fromEntries(list(chunk.columns).filter((c) => c?.offending > 0).map((c) => [c.name, c.offending])),
      },
    })
    .then(() => {
      drill.panel.appendChild(el("p", { class: "behind-context", text: "The model was told what you selected." }));
    })
    .catch((err) => {
      drill.panel.appendChild(el("p", { class: "error", text: `Could not tell the model what you selected: ${err?.message ?? err}` }));
    });
}

// -- several payloads (the standalone door) -------------------------------------------------

function renderAll(value) {
  const items = Array.isArray(value) ? value : [value];
  const bad = items.findIndex((item) => !isPayload(item));
  if (bad >= 0) {
    const where = items.length > 1 ? `item ${count(bad + 1)} of ${count(items.length)}` : "it";
    return Promise.reject(
      new Error(`${where} is not a chartkit View payload (it needs kind chart, table or refused, and a reason); write one with View.to_json()`),
    );
  }
  clearErrors();
  return Promise.all(items.map(render)).then((done) => {
    setState("done");
    return done;
  });
}

function readFile(file) {
  file
    .text()
    .then((body) => renderAll(JSON.parse(body)))
    .catch((err) => {
      clearErrors();
      showError(`Could not open ${file.name}: ${err?.message ?? err}`);
    });
}

function standalone() {
  document.body.classList.add("standalone");
  document.getElementById("bar").hidden = false;
  const picker = document.getElementById("open");
  picker.addEventListener("change", () => {
    for (const file of picker.files) readFile(file);
    picker.value = "";
  });
  document.addEventListener("dragover", (event) => {
    event.preventDefault();
    empty.classList.add("dragging");
  });
  document.addEventListener("drop", (event) => {
    event.preventDefault();
    empty.classList.remove("dragging");
    for (const file of event.dataTransfer?.files ?? []) readFile(file);
  });
  const dark = window.matchMedia?.("(prefers-color-scheme: dark)");
  applyTheme(dark?.matches ? "dark" : "light");
  dark?.addEventListener?.("change", (event) => applyTheme(event.matches ? "dark" : "light"));

  let initial = window.CHARTKIT_PAYLOAD;
  if (initial === undefined) {
    try {
      initial = JSON.parse(document.getElementById("payload").textContent);
    } catch (err) {
      showError(`The embedded payload is not JSON: ${err.message}`);
      empty.hidden = false;
      return;
    }
  }
  if (initial === null || initial === undefined) {
    empty.hidden = false;
    setState("empty");
    return;
  }
  renderAll(initial).catch((err) => {
    showError(err.message);
    empty.hidden = false;
  });
}

// -- the MCP Apps door ----------------------------------------------------------------------

function contentText(result) {
  return list(result?.content)
    .filter((block) => block && block.type === "text" && typeof block.text === "string")
    .map((block) => block.text)
    .join("\n\n");
}

function showToolResult(result) {
  messages.replaceChildren();
  drawn.length = 0;
  statusLine.textContent = "";
  clearErrors();
  // An enforce refusal is a tool error that still carries its View payload (kind "refused"):
  // shown as the refusal it is. Any other error is shown as an error.
  if (result?.isError && !isPayload(result?.structuredContent)) {
    showError(contentText(result) || "The tool answered with an error and no message.");
    return Promise.resolve(null);
  }
  if (isPayload(result?.structuredContent)) {
    const meta = result?._meta ?? {};
    return render(result.structuredContent, { rows: meta["chartkit/rows"], drill: meta["chartkit/drill"] }).then((view) => {
      setState("done");
      return view;
    });
  }
  // Not a View payload: show the text the model reads, as text.
  messages.appendChild(el("pre", { class: "text", text: contentText(result) || "(the tool answered no text)" }));
  setState("done");
  return Promise.resolve(null);
}

function hosted() {
  statusLine.textContent = "Waiting for the tool result…";
  setState("waiting");
  bridge = new ViewBridge(
    { name: "chartkit", version: "__VERSION__" },
    {
      // The arguments may hold rows; they are never shown — only the checked result is.
      toolinput: () => {
        statusLine.textContent = "Charting the tool result…";
      },
      toolresult: (result) => {
        showToolResult(result).catch((err) => showError(`Could not show the tool result: ${err?.message ?? err}`));
      },
      toolcancelled: (params) => {
        statusLine.textContent = "";
        showError(`The tool call was cancelled${params?.reason ? `: ${params.reason}` : "."}`);
      },
      hostcontext: (context) => applyTheme(context.theme),
    },
  );
  const lonely = setTimeout(() => {
    if (document.body.dataset.state === "waiting") {
      statusLine.textContent =
        "Waiting for an MCP Apps host… (no host has answered yet; on its own, this page renders the View payloads embedded in it)";
    }
  }, 5000);
  return bridge
    .connect()
    .finally(() => clearTimeout(lonely))
    .then((context) => applyTheme(context?.theme))
    .catch((err) => showError(`Could not connect to the host: ${err?.message ?? err}`));
}

window.chartkit = {
  render: (payload) => renderAll(payload),
  showToolResult,
  applyTheme,
  views,
};

// Inside a frame with no payload of its own, this page waits for an MCP Apps host; a page
// holding a payload renders it wherever it is (a notebook's iframe, say).
function holdsPayload() {
  if (window.CHARTKIT_PAYLOAD !== undefined) return true;
  const element = document.getElementById("payload");
  return element !== null && element.textContent.trim() !== "null";
}

if (window.parent !== window && !holdsPayload()) hosted();
else standalone();
