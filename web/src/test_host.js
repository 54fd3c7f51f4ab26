// A headless MCP Apps host for chartkit's browser test (test-only; built into
// tests/mcp_host/host.js by `make web`). It is the official AppBridge + PostMessageTransport
// from @modelcontextprotocol/ext-apps: it loads a ui:// resource's HTML into
// <iframe sandbox="allow-scripts"> under the CSP a host applies when the resource asks for
// none, and relays tool input, tool results and the theme. It proxies the View's tools/call to
// the server through window.callServerTool (the test wires it to a real MCP client), and keeps
// each ui/update-model-context, as a host keeps it for the model's next turn.
import { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";

export const DEFAULT_CSP =
  "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; " +
  "img-src 'self' data:; connect-src 'none'";

function withCsp(html, csp) {
  const meta = `<meta http-equiv="Content-Security-Policy" content="${csp.replace(/"/g, "&quot;")}">`;
  const head = /<head[^>]*>/i.exec(html);
  if (!head) throw new Error("the resource is not an HTML document with a <head>");
  const at = head.index + head[0].length;
  return html.slice(0, at) + meta + html.slice(at);
}

function within(promise, ms, what) {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

const host = {
  bridge: null,
  iframe: null,
  sizes: [],
  initialized: false,
  logs: [],
  toolCalls: [],
  modelContext: [],
  async load(html, { theme = "light", csp = DEFAULT_CSP, serverTools = true } = {}) {
    const iframe = document.createElement("iframe");
    iframe.setAttribute("sandbox", "allow-scripts");
    iframe.setAttribute("title", "chartkit view");
    iframe.style.width = "100%";
    iframe.style.border = "0";
    iframe.style.height = "200px";
    document.getElementById("apps").replaceChildren(iframe);
    const bridge = new AppBridge(
      null,
      { name: "chartkit-test-host", version: "1.0.0" },
      serverTools
        ? { openLinks: {}, logging: {}, serverTools: {}, updateModelContext: { text: {} } }
        : { openLinks: {}, logging: {} },
      { hostContext: { theme, platform: "web", displayMode: "inline" } },
    );
    bridge.onsizechange = ({ width, height }) => {
      host.sizes.push({ width, height });
      if (height) iframe.style.height = `${height}px`;
    };
    bridge.onloggingmessage = (params) => host.logs.push(params);
    if (serverTools) {
      // A host proxies a View's tool calls to the server it came from.
      bridge.oncalltool = async (params) => {
        host.toolCalls.push(params);
        if (typeof window.callServerTool !== "function") throw new Error("the test wired no server");
        return window.callServerTool(params);
      };
      bridge.onupdatemodelcontext = async (params) => {
        host.modelContext.push(params);
        return {};
      };
    }
    const ready = new Promise((resolve) => {
      bridge.oninitialized = () => {
        host.initialized = true;
        resolve();
      };
    });
    host.bridge = bridge;
    host.iframe = iframe;
    // Listen before the page runs: its ui/initialize is the first thing it sends.
    await bridge.connect(new PostMessageTransport(iframe.contentWindow, iframe.contentWindow));
    iframe.srcdoc = withCsp(html, csp);
    await within(ready, 15000, "the view never sent ui/notifications/initialized");
  },
  async toolInput(args) {
    await host.bridge.sendToolInput({ arguments: args });
  },
  async toolResult(result) {
    await host.bridge.sendToolResult(result);
  },
  setTheme(theme) {
    host.bridge.setHostContext({ theme, platform: "web", displayMode: "inline" });
  },
};

window.testHost = host;
