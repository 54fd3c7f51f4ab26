// chartkit's notebook widget (anywidget): the chart drawn by the same pinned Vega as the view
// page, offline, with tooltips; a clicked mark or a brushed x range is sent to the kernel as
// `selected` ({kind: "mark", datum} or {kind: "interval", interval}), where
// chartkit.widget.ChartWidget reads it as a chartkit.selection.Selection. Nothing from the
// spec reaches the DOM as markup; Vega may load nothing (the data is inside the spec).
import { loader as vegaLoader } from "vega";
import vegaEmbed from "vega-embed";
import { expressionInterpreter } from "vega-interpreter";

const BRUSH = "chartkit_brush";
const offline = vegaLoader();
offline.sanitize = (uri) =>
  Promise.reject(new Error(`chartkit's widget loads nothing from outside the chart (asked for ${String(uri).slice(0, 80)})`));

// A date as Vega parsed a wall-clock string (in the browser's local time), back as that text.
function wall(date) {
  const p = (n, w = 2) => String(n).padStart(w, "0");
  return (
    `${date.getFullYear()}-${p(date.getMonth() + 1)}-${p(date.getDate())}` +
    `T${p(date.getHours())}:${p(date.getMinutes())}:${p(date.getSeconds())}.${p(date.getMilliseconds(), 3)}`
  );
}

function temporalFields(spec) {
  const out = new Set();
  for (const enc of Object.values(spec.encoding || {})) {
    if (enc && typeof enc === "object" && enc.type === "temporal" && typeof enc.field === "string") out.add(enc.field);
  }
  return out;
}

function plain(value, temporal) {
  if (value instanceof Date) return wall(value);
  if (temporal && typeof value === "number") return wall(new Date(value));
  if (value === null || ["string", "number", "boolean"].includes(typeof value)) return value;
  return undefined;
}

function plainDatum(datum, dates) {
  const out = {};
  for (const key of Object.keys(datum)) {
    const v = plain(datum[key], dates.has(key));
    if (v !== undefined) out[key] = v;
  }
  return out;
}

// A brush along x, when the View's drill (View.to_dict()["drill"]) names the x field brushable
// and the chart is one view (a brush is a parameter of one view); its type is the drill key's.
function brushField(spec, drill) {
  if (!spec.mark || spec.layer || spec.facet || spec.concat || spec.hconcat || spec.vconcat || spec.repeat) return null;
  const x = spec.encoding && spec.encoding.x;
  const brushable = Array.isArray(drill.brushable) ? drill.brushable : [];
  if (!x || typeof x.field !== "string" || !brushable.includes(x.field)) return null;
  const keys = Array.isArray(drill.keys) ? drill.keys : [];
  const key = keys.find((k) => k && k.field === x.field);
  const type = key ? key.type : x.type;
  return type === "temporal" || type === "quantitative" ? x.field : null;
}

function withBrush(spec) {
  const params = Array.isArray(spec.params) ? spec.params : [];
  return { ...spec, params: [...params, { name: BRUSH, select: { type: "interval", encodings: ["x"] } }] };
}

function send(model, selected) {
  model.set("selected", selected);
  model.save_changes();
}

async function draw(model, el) {
  el.replaceChildren();
  const raw = model.get("spec");
  if (!raw || typeof raw !== "object") return null;
  const { usermeta: _dropped, ...own } = raw; // a spec cannot change how it is embedded
  const given = model.get("drill");
  const drill = given && typeof given === "object" ? given : {};
  const keys = Array.isArray(drill.keys) ? drill.keys : [];
  const clickable = Number.isInteger(drill.marks) && drill.marks > 0 && keys.length > 0;
  const brushed = brushField(own, drill);
  const spec = brushed ? withBrush(own) : own;
  const dates = temporalFields(spec);
  const target = document.createElement("div");
  target.className = "chartkit-widget";
  el.appendChild(target);
  const result = await vegaEmbed(target, spec, {
    renderer: "svg",
    actions: false,
    mode: "vega-lite",
    ast: true,
    expr: expressionInterpreter,
    loader: offline,
  });
  const view = result.view;
  view.addEventListener("click", (_event, item) => {
    if (!clickable) return;
    if (!item || !item.datum || (item.mark && String(item.mark.name || "").includes("brush"))) return;
    if (!item.mark || item.mark.marktype === "group") return;
    send(model, { kind: "mark", datum: plainDatum(item.datum, dates) });
  });
  if (brushed) {
    view.addSignalListener(BRUSH, (_name, value) => {
      const interval = {};
      for (const [field, bounds] of Object.entries(value || {})) {
        if (Array.isArray(bounds) && bounds.length === 2 && Number(bounds[0]) === Number(bounds[1])) return; // a click
        if (Array.isArray(bounds) && bounds.length === 2) {
          interval[field] = bounds.map((b) => plain(b, dates.has(field)));
        }
      }
      send(model, Object.keys(interval).length ? { kind: "interval", interval } : {});
    });
  }
  el.dataset.state = "drawn";
  return view;
}

export default {
  render({ model, el }) {
    let view = null;
    const redraw = () => {
      if (view) view.finalize();
      draw(model, el)
        .then((v) => {
          view = v;
        })
        .catch((err) => {
          const p = document.createElement("p");
          p.textContent = `chartkit could not draw this chart: ${String(err && err.message ? err.message : err).slice(0, 300)}`;
          el.replaceChildren(p);
          el.dataset.state = "error";
        });
    };
    model.on("change:spec", redraw);
    model.on("change:drill", redraw);
    redraw();
    return () => {
      if (view) view.finalize();
    };
  },
};
