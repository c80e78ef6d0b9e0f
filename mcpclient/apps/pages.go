package apps

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"html/template"
	"net/http"
)

// hostTemplate is vouch's page around a view: a banner saying whose app
// it is, the sandbox proxy's frame, and the relay. It trusts nothing the
// frame sends: messages go to the bridge as they are, from the proxy's
// window and origin only.
var hostTemplate = template.Must(template.New("host").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>vouch — {{.Title}}</title>
<style nonce="{{.Nonce}}">
body{margin:0;font:14px/1.4 system-ui,sans-serif;background:#f6f6f6}
header{padding:6px 10px;background:#222;color:#eee}
#status{float:right;opacity:.8}
iframe{display:block;border:0;width:100%;height:480px;background:#fff}
</style></head><body>
<header>App <b>{{.Tool}}</b> from <b>{{.Server}}</b>, shown by vouch. Tool calls it makes wait for your approval in the terminal.<span id="status">connecting…</span></header>
<iframe id="sandbox" sandbox="allow-scripts allow-same-origin" referrerpolicy="no-referrer" src="{{.SandboxURL}}"></iframe>
<script nonce="{{.Nonce}}">
(function () {
  const sandboxOrigin = {{.SandboxOrigin}};
  const base = location.pathname;
  const frame = document.getElementById("sandbox");
  const status = document.getElementById("status");
  function relay(msg) {
    return fetch(base + "/send", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(msg)});
  }
  window.addEventListener("message", function (e) {
    if (e.source !== frame.contentWindow || e.origin !== sandboxOrigin) return;
    const m = e.data;
    if (m && m.method === "ui/notifications/size-changed" && m.params && typeof m.params.height === "number") {
      frame.style.height = Math.min(Math.max(m.params.height, 40), 4000) + "px";
    }
    relay(m).catch(function () { status.textContent = "vouch is not answering"; });
  });
  async function poll() {
    for (;;) {
      let r;
      try {
        r = await fetch(base + "/poll", {method: "POST"});
      } catch (err) {
        status.textContent = "vouch is not answering";
        await new Promise(function (ok) { setTimeout(ok, 1000); });
        continue;
      }
      if (r.status === 410 || r.status === 404) { status.textContent = "closed by vouch"; return; }
      if (!r.ok) { await new Promise(function (ok) { setTimeout(ok, 1000); }); continue; }
      status.textContent = "";
      const msgs = await r.json();
      for (const m of msgs) frame.contentWindow.postMessage(m, sandboxOrigin);
    }
  }
  poll();
})();
</script></body></html>
`))

// sandboxTemplate is the sandbox proxy (the specification's "Sandbox
// proxy"): on its own origin, it loads the view's HTML into an inner frame
// without allow-same-origin (an opaque origin that cannot reach the proxy),
// and forwards messages both ways, except the sandbox's own.
var sandboxTemplate = template.Must(template.New("sandbox").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>vouch app sandbox</title>
<style>html,body{margin:0;height:100%}iframe{display:block;border:0;width:100%;height:100%}</style>
<script>
(function () {
  const hostOrigin = {{.HostOrigin}};
  if (window.parent === window) return;
  let inner = null;
  function sandboxMethod(m) {
    return m && typeof m.method === "string" && m.method.indexOf("ui/notifications/sandbox-") === 0;
  }
  window.addEventListener("message", function (e) {
    if (e.source === window.parent) {
      if (e.origin !== hostOrigin) return;
      const m = e.data;
      if (m && m.method === "ui/notifications/sandbox-resource-ready") {
        if (inner || !m.params || typeof m.params.html !== "string") return;
        inner = document.createElement("iframe");
        inner.setAttribute("sandbox", "allow-scripts allow-forms");
        inner.setAttribute("referrerpolicy", "no-referrer");
        inner.srcdoc = m.params.html;
        (document.body || document.documentElement).appendChild(inner);
        return;
      }
      if (sandboxMethod(m) || !inner) return;
      inner.contentWindow.postMessage(m, "*");
    } else if (inner && e.source === inner.contentWindow) {
      if (sandboxMethod(e.data)) return;
      window.parent.postMessage(e.data, hostOrigin);
    }
  });
  window.parent.postMessage({jsonrpc: "2.0", method: "ui/notifications/sandbox-proxy-ready", params: {}}, hostOrigin);
})();
</script></head><body></body></html>
`))

// hostPage writes the host page of vw with a fresh nonce.
func (v *Viewer) hostPage(w http.ResponseWriter, vw *view) {
	nb := make([]byte, 16)
	if _, err := rand.Read(nb); err != nil {
		refuse(w, http.StatusInternalServerError)
		return
	}
	nonce := base64.RawStdEncoding.EncodeToString(nb)
	info := vw.bridge.View()
	var buf bytes.Buffer
	err := hostTemplate.Execute(&buf, map[string]any{
		"Nonce": nonce, "Title": vw.title, "Tool": info.Tool.Name, "Server": info.ServerName,
		"SandboxURL": template.URL(v.sandboxOrigin + "/s/" + vw.sandboxToken), "SandboxOrigin": v.sandboxOrigin,
	})
	if err != nil {
		refuse(w, http.StatusInternalServerError)
		return
	}
	commonHeaders(w)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; script-src 'nonce-"+nonce+"'; style-src 'nonce-"+nonce+
		"'; connect-src 'self'; frame-src "+v.sandboxOrigin+"; img-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
	w.Header().Set("X-Frame-Options", "DENY")
	_, _ = w.Write(buf.Bytes()) // a browser that went away needs nothing more
}

// sandboxPage writes the sandbox proxy of vw with the view's CSP.
func (v *Viewer) sandboxPage(w http.ResponseWriter, vw *view) {
	var buf bytes.Buffer
	if err := sandboxTemplate.Execute(&buf, map[string]any{"HostOrigin": v.hostOrigin}); err != nil {
		refuse(w, http.StatusInternalServerError)
		return
	}
	commonHeaders(w)
	w.Header().Set("Cross-Origin-Resource-Policy", "cross-origin")
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", vw.header)
	_, _ = w.Write(buf.Bytes())
}
