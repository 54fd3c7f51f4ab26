// The View side of MCP Apps (spec 2026-01-26), by hand: the spec lets a View speak the ui/*
// JSON-RPC over postMessage without an SDK, and the official @modelcontextprotocol/ext-apps
// App would add ~600 KB (zod and the MCP client) to a page that needs a few messages. The
// browser test drives this against the official AppBridge, which validates every message.
// Besides the ui/* lifecycle, the View calls the server's tools through the host (tools/call,
// when the host offers serverTools) and updates the model's context (ui/update-model-context,
// when the host offers updateModelContext) — what the App class calls callServerTool and
// updateModelContext.
export const PROTOCOL_VERSION = "2026-01-26";

export class ViewBridge {
  constructor(appInfo, handlers) {
    this.appInfo = appInfo;
    this.handlers = handlers; // {toolinput, toolresult, toolcancelled, hostcontext, teardown}
    this.nextId = 1;
    this.pending = new Map();
    this.hostContext = {};
    this.hostCapabilities = {};
    this.host = window.parent;
    this.onMessage = this.onMessage.bind(this);
  }

  post(message) {
    this.host.postMessage({ jsonrpc: "2.0", ...message }, "*");
  }

  request(method, params) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.post({ id, method, params });
    });
  }

  notify(method, params) {
    this.post(params === undefined ? { method } : { method, params });
  }

  onMessage(event) {
    if (event.source !== this.host) return;
    const message = event.data;
    if (!message || typeof message !== "object" || message.jsonrpc !== "2.0") return;
    if ("id" in message && !("method" in message)) {
      const waiting = this.pending.get(message.id);
      if (!waiting) return;
      this.pending.delete(message.id);
      if (message.error) waiting.reject(new Error(`${message.error.message} (code ${message.error.code})`));
      else waiting.resolve(message.result);
      return;
    }
    const { method, params } = message;
    if ("id" in message) {
      // A request from the host: answer every one, even those this View does not serve.
      if (method === "ui/resource-teardown") {
        Promise.resolve(this.handlers.teardown?.(params)).finally(() => this.post({ id: message.id, result: {} }));
      } else if (method === "ping") {
        this.post({ id: message.id, result: {} });
      } else {
        this.post({ id: message.id, error: { code: -32601, message: `chartkit's view does not serve ${method}` } });
      }
      return;
    }
    if (method === "ui/notifications/tool-input") this.handlers.toolinput?.(params ?? {});
    else if (method === "ui/notifications/tool-result") this.handlers.toolresult?.(params ?? {});
    else if (method === "ui/notifications/tool-cancelled") this.handlers.toolcancelled?.(params ?? {});
    else if (method === "ui/notifications/host-context-changed") {
      this.hostContext = { ...this.hostContext, ...(params ?? {}) };
      this.handlers.hostcontext?.(this.hostContext);
    }
  }

  async connect() {
    window.addEventListener("message", this.onMessage);
    const result = await this.request("ui/initialize", {
      appInfo: this.appInfo,
      appCapabilities: {},
      protocolVersion: PROTOCOL_VERSION,
    });
    this.hostContext = result?.hostContext ?? {};
    this.hostCapabilities = result?.hostCapabilities ?? {};
    this.notify("ui/notifications/initialized", {});
    this.reportSize();
    return this.hostContext;
  }

  // Whether the host proxies tools/call to the server (MCP Apps: hostCapabilities.serverTools).
  canCallServerTools() {
    return Boolean(this.hostCapabilities && this.hostCapabilities.serverTools);
  }

  // Whether the host takes ui/update-model-context (hostCapabilities.updateModelContext).
  canUpdateModelContext() {
    return Boolean(this.hostCapabilities && this.hostCapabilities.updateModelContext);
  }

  // tools/call through the host: App.callServerTool. Resolves to the CallToolResult.
  callServerTool(name, args) {
    return this.request("tools/call", { name, arguments: args });
  }

  // ui/update-model-context: App.updateModelContext. Each update replaces the previous one.
  updateModelContext(params) {
    return this.request("ui/update-model-context", params);
  }

  // The host sizes the iframe from what the View reports: its content's height.
  reportSize() {
    let queued = false;
    let last = [0, 0];
    const measure = () => {
      if (queued) return;
      queued = true;
      requestAnimationFrame(() => {
        queued = false;
        const root = document.documentElement;
        const kept = root.style.height;
        root.style.height = "max-content";
        const height = Math.ceil(root.getBoundingClientRect().height);
        root.style.height = kept;
        const width = Math.ceil(window.innerWidth);
        if (width !== last[0] || height !== last[1]) {
          last = [width, height];
          this.notify("ui/notifications/size-changed", { width, height });
        }
      });
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(document.documentElement);
    observer.observe(document.body);
  }
}
