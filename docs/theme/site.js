// The guide's script: copy buttons, search, the page menu, the table of
// contents' highlight, and the Run buttons, answered by the chapters' real
// servers compiled to WebAssembly and running in the page. The pages read
// fine without it.
(function () {
  "use strict";
  var body = document.body;
  var root = body.dataset.root || "";

  // Live reload, only when go run ./docs serves the page: the server names
  // the page's build in a meta element, and sends the current build's name
  // down an event stream when the page connects and after each rebuild. A
  // page of another build reloads itself, scrolled where it was. Only a
  // page on screen holds a stream, since a browser opens few connections
  // to one server; one shown again asks at once. The static site has no
  // such element and opens no connection.
  var live = document.querySelector("meta[name=\"live-reload\"]");
  if (live && window.EventSource) {
    var scrollKey = "guide-live-reload";
    var stream = null;
    window.guideLiveEvents = 0; // the browser test counts them
    try {
      var kept = JSON.parse(sessionStorage.getItem(scrollKey) || "null");
      sessionStorage.removeItem(scrollKey);
      if (kept && kept.path === location.pathname) { window.scrollTo(kept.x, kept.y); }
    } catch (e) { /* no storage: the browser's own restoring it is */ }
    var connect = function () {
      if (stream || document.hidden) { return; }
      stream = new EventSource("/_live");
      stream.addEventListener("build", function (e) {
        window.guideLiveEvents++;
        if (e.data === live.content) { return; }
        disconnect();
        try {
          sessionStorage.setItem(scrollKey, JSON.stringify({ path: location.pathname, x: window.scrollX, y: window.scrollY }));
        } catch (err) { /* reloaded where the browser keeps it */ }
        location.reload();
      });
    };
    var disconnect = function () {
      if (stream) { stream.close(); stream = null; }
    };
    document.addEventListener("visibilitychange", function () {
      if (document.hidden) { disconnect(); } else { connect(); }
    });
    window.addEventListener("pagehide", disconnect);
    window.addEventListener("pageshow", connect);
    connect();
  }

  // Copy buttons on every code block.
  function copyText(text) {
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(text);
    }
    return new Promise(function (resolve, reject) {
      var area = document.createElement("textarea");
      area.value = text;
      area.setAttribute("readonly", "");
      area.style.position = "fixed";
      area.style.opacity = "0";
      document.body.appendChild(area);
      area.select();
      var ok = document.execCommand("copy");
      area.remove();
      if (ok) { resolve(); } else { reject(new Error("copy refused")); }
    });
  }
  function addCopyButton(block) {
    var pre = block.querySelector("pre");
    if (!pre || block.querySelector(".copy")) { return; }
    // The source text itself: innerText would count each highlighted line,
    // a block of its own, twice.
    var source = pre.textContent.replace(/\n$/, "");
    if (source.trim().indexOf("\n") < 0) { block.classList.add("one-line"); }
    var button = document.createElement("button");
    button.type = "button";
    button.className = "copy";
    button.textContent = body.dataset.copy;
    button.addEventListener("click", function () {
      var text = source;
      copyText(text).then(function () {
        button.textContent = body.dataset.copied;
        button.classList.add("done");
        button.dataset.copiedText = text;
        setTimeout(function () {
          button.textContent = body.dataset.copy;
          button.classList.remove("done");
        }, 1500);
      });
    });
    block.appendChild(button);
  }
  document.querySelectorAll(".code").forEach(addCopyButton);

  // A block that scrolls sideways (code on a phone, a wide table) takes the
  // keyboard's focus, so that the arrow keys scroll it, and is named for
  // the screen reader that lands on it: a code block as a region, by its
  // figure's caption where it has one; a table by its role. A block that
  // fits adds no stop to the Tab order. Each is looked at again when its
  // width changes.
  function scrollName(el) {
    if (el.tagName !== "PRE") { return body.dataset.table; }
    var caption = el.closest("figure") && el.closest("figure").querySelector("figcaption");
    var text = caption ? caption.textContent.replace(/\s+/g, " ").trim() : "";
    return body.dataset.code + (text ? ": " + text : "");
  }
  function fitScroll(el) {
    var scrolls = /auto|scroll/.test(getComputedStyle(el).overflowX) && el.scrollWidth > el.clientWidth + 1;
    if (scrolls === (el.getAttribute("tabindex") === "0")) { return; }
    if (scrolls) {
      el.setAttribute("tabindex", "0");
      if (el.tagName !== "TABLE") {
        el.setAttribute("role", "region");
        el.setAttribute("aria-label", scrollName(el));
      }
    } else {
      ["tabindex", "role", "aria-label"].forEach(function (a) { el.removeAttribute(a); });
    }
  }
  var resized = window.ResizeObserver ? new ResizeObserver(function (entries) {
    entries.forEach(function (e) { fitScroll(e.target); });
  }) : null;
  function watchScroll(scope) {
    scope.querySelectorAll(".code pre, .table-wrap, article table").forEach(function (el) {
      fitScroll(el);
      if (resized) { resized.observe(el); }
    });
  }
  watchScroll(document);

  // A printed page shows the folded handshakes too.
  window.addEventListener("beforeprint", function () {
    document.querySelectorAll("details.handshake").forEach(function (d) { d.open = true; });
  });

  // The page menu on phones.
  var toggle = document.querySelector(".menu-toggle");
  var sidebar = document.getElementById("sidebar");
  if (toggle && sidebar) {
    toggle.addEventListener("click", function () {
      var open = sidebar.classList.toggle("open");
      toggle.setAttribute("aria-expanded", open ? "true" : "false");
    });
    // Escape closes the open menu, and gives the focus back to its button
    // if it was inside.
    document.addEventListener("keydown", function (e) {
      if (e.key !== "Escape" || !sidebar.classList.contains("open")) { return; }
      sidebar.classList.remove("open");
      toggle.setAttribute("aria-expanded", "false");
      if (sidebar.contains(document.activeElement) || document.activeElement === toggle) { toggle.focus(); }
    });
  }

  // Close the language list when clicking elsewhere, or on Escape while the
  // focus is in it (back on its summary).
  document.addEventListener("click", function (e) {
    document.querySelectorAll("details.langs[open]").forEach(function (d) {
      if (!d.contains(e.target)) { d.removeAttribute("open"); }
    });
  });
  document.addEventListener("keydown", function (e) {
    if (e.key !== "Escape") { return; }
    document.querySelectorAll("details.langs[open]").forEach(function (d) {
      if (!d.contains(document.activeElement)) { return; }
      d.removeAttribute("open");
      d.querySelector("summary").focus();
    });
  });

  // The language switcher keeps the reader on the same section: ids are the
  // same in every language, so the other language's page is opened at the
  // section the location names if it is on screen, else at the last
  // section whose heading has scrolled past the top.
  function sectionInView() {
    var top = document.querySelector(".top");
    var line = (top ? top.getBoundingClientRect().bottom : 0) + 24;
    var named = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)));
    if (named) {
      var r = named.getBoundingClientRect();
      if (r.bottom > 0 && r.top < window.innerHeight) { return location.hash; }
    }
    // At the end of the page, the last sections cannot scroll up to the
    // top: the last heading on screen is the one read.
    var end = window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 2;
    if (end) { line = window.innerHeight; }
    var id = "";
    document.querySelectorAll("article h2[id], article h3[id]").forEach(function (h) {
      if (h.getBoundingClientRect().top <= line) { id = h.id; }
    });
    return id ? "#" + encodeURIComponent(id) : "";
  }
  document.querySelectorAll("details.langs a").forEach(function (a) {
    function carry() { a.href = a.href.split("#")[0] + sectionInView(); }
    ["pointerdown", "focus", "click"].forEach(function (type) { a.addEventListener(type, carry); });
  });

  // Search, over the index the generator wrote as a script.
  var input = document.getElementById("search-input");
  var list = document.getElementById("search-results");
  function escapeHTML(s) {
    return s.replace(/[&<>"]/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;" }[c];
    });
  }
  function mark(text, terms) {
    var html = escapeHTML(text);
    terms.forEach(function (t) {
      var re = new RegExp("(" + escapeHTML(t).replace(/[.*+?^${}()|[\]\\]/g, "\\$&") + ")", "ig");
      html = html.replace(re, "<mark>$1</mark>");
    });
    return html;
  }
  function snippet(text, term) {
    var at = text.toLowerCase().indexOf(term);
    if (at < 0) { return text.slice(0, 120); }
    var from = Math.max(0, at - 50);
    return (from > 0 ? "…" : "") + text.slice(from, at + 90) + "…";
  }
  // tokens splits a text as the generator split the index's (searchTokens
  // in internal/site): runs of letters, marks and digits, in lower case,
  // full-width Latin made ASCII; a run of Han, kana or Hangul gives each
  // pair of neighbouring characters and its last character.
  var wordRE = /[\p{L}\p{M}\p{N}\u200c\u200d]+/gu;
  var cjk = "\\p{sc=Han}\\p{sc=Hiragana}\\p{sc=Katakana}\\p{sc=Hangul}\\u30fc";
  var partRE = new RegExp("[" + cjk + "]+|[^" + cjk + "]+", "gu");
  var cjkRE = new RegExp("^[" + cjk + "]", "u");
  function tokens(text) {
    var out = [], seen = {};
    function add(t) {
      if (!seen[t]) { seen[t] = true; out.push(t); }
    }
    var folded = text.normalize("NFC").replace(/[\uff01-\uff5e]/g, function (c) {
      return String.fromCharCode(c.charCodeAt(0) - 0xfee0);
    }).toLowerCase().replace(/i\u0307/g, "i"); // İ lowers to i and a dot above
    (folded.match(wordRE) || []).forEach(function (word) {
      word.match(partRE).forEach(function (part) {
        if (!cjkRE.test(part)) { add(part); return; }
        var chars = Array.from(part);
        for (var i = 0; i + 1 < chars.length; i++) { add(chars[i] + chars[i + 1]); }
        add(chars[chars.length - 1]);
      });
    });
    return out;
  }
  window.guideSearchTokens = tokens; // the browser test checks it against the index
  // search returns the best entries in which every term begins a token.
  function search(terms, phrase) {
    var hits = [];
    (window.guideSearchIndex || []).forEach(function (e) {
      var head = " " + e.k, words = " " + e.w;
      var score = e.t.toLowerCase().indexOf(phrase) >= 0 ? 5 : 0;
      for (var i = 0; i < terms.length; i++) {
        var inHead = head.indexOf(" " + terms[i]) >= 0;
        var inText = words.indexOf(" " + terms[i]) >= 0;
        if (!inHead && !inText) { return; }
        score += (inHead ? 10 : 0) + (inText ? 1 : 0);
      }
      hits.push({ entry: e, score: score });
    });
    hits.sort(function (a, b) { return b.score - a.score; });
    return hits.slice(0, 12).map(function (h) { return h.entry; });
  }
  function showResults() {
    var query = input.value.trim();
    var terms = tokens(query);
    if (!terms.length) { list.hidden = true; list.innerHTML = ""; return; }
    // Marked: the words as typed, longest first, for a pair of CJK
    // characters marks little.
    var words = query.toLowerCase().split(/\s+/).sort(function (a, b) { return b.length - a.length; });
    var hits = search(terms, query.toLowerCase());
    list.innerHTML = hits.length ? hits.map(function (e) {
      return "<li><a href=\"" + escapeHTML(root + e.u) + "\"><span class=\"where\">" + escapeHTML(e.p) +
        "</span><span class=\"heading\">" + mark(e.h || e.p, words) + "</span><span class=\"snippet\">" +
        mark(snippet(e.t, words[0]), words) + "</span></a></li>";
    }).join("") : "<li class=\"none\">" + escapeHTML(body.dataset.noResults) + "</li>";
    list.hidden = false;
  }
  if (input && list) {
    input.addEventListener("input", showResults);
    input.addEventListener("keydown", function (e) {
      if (e.key === "Escape") { input.value = ""; showResults(); }
      if (e.key === "Enter") {
        var first = list.querySelector("a");
        if (first) { first.click(); }
      }
    });
    document.addEventListener("keydown", function (e) {
      if (e.key === "/" && document.activeElement !== input) { e.preventDefault(); input.focus(); }
    });
    document.addEventListener("click", function (e) {
      if (!list.contains(e.target) && e.target !== input) { list.hidden = true; }
    });
    // From the results, Escape goes back to the box and closes the list;
    // the list also closes when the focus leaves the search.
    list.addEventListener("keydown", function (e) {
      if (e.key === "Escape") { list.hidden = true; input.focus(); }
    });
    input.parentNode.addEventListener("focusout", function (e) {
      if (e.relatedTarget && !input.parentNode.contains(e.relatedTarget)) { list.hidden = true; }
    });
  }

  // The table of contents follows the reader.
  var tocLinks = document.querySelectorAll(".toc a");
  if (tocLinks.length && "IntersectionObserver" in window) {
    var byID = {};
    tocLinks.forEach(function (a) { byID[a.getAttribute("href").slice(1)] = a; });
    var observer = new IntersectionObserver(function (entries) {
      entries.forEach(function (entry) {
        if (entry.isIntersecting && byID[entry.target.id]) {
          tocLinks.forEach(function (a) { a.classList.remove("active"); });
          byID[entry.target.id].classList.add("active");
        }
      });
    }, { rootMargin: "0px 0px -70% 0px" });
    Object.keys(byID).forEach(function (id) {
      var h = document.getElementById(id);
      if (h) { observer.observe(h); }
    });
  }

  // Run buttons. Each chapter's main, compiled to WebAssembly, ships in
  // script files (a page opened from file:// may load scripts, not fetch a
  // .wasm), loaded on the first Run only. Its mcp.Main hands the page the
  // server, whose run(lines) serves a fresh connection in lock step and
  // returns what the server wrote after each line.
  var moduleDir = root + "assets/run/";
  var servers = {}; // by module name: a promise of the server
  var receivers = {}; // by module name: takes a script file's part
  window.guideModulePart = function (name, i, data) {
    if (receivers[name]) { receivers[name](i, data); }
  };
  function loadScript(src) {
    return new Promise(function (resolve, reject) {
      var script = document.createElement("script");
      script.src = src;
      script.onload = function () { resolve(); };
      script.onerror = function () { script.remove(); reject(new Error(src + " did not load")); };
      document.head.appendChild(script);
    });
  }
  var goRuntime = null; // a promise of wasm_exec.js
  var starting = Promise.resolve(); // modules start one at a time: mcpMain is global
  function fromBase64(text) {
    if (Uint8Array.fromBase64) { return Uint8Array.fromBase64(text); }
    var bin = atob(text), bytes = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) { bytes[i] = bin.charCodeAt(i); }
    return bytes;
  }
  // server returns a promise of the chapter's server, loading its module the
  // first time; progress(done) is told how much of it has arrived.
  function server(run, progress) {
    var name = run.dataset.module;
    if (servers[name]) { return servers[name]; }
    var parts = Number(run.dataset.parts), got = [], count = 0;
    receivers[name] = function (i, data) {
      if (got[i] === undefined) { got[i] = data; count++; progress(count / parts); }
    };
    progress(0);
    goRuntime = goRuntime || loadScript(moduleDir + "wasm_exec.js").catch(function (err) { goRuntime = null; throw err; });
    var files = [goRuntime];
    for (var i = 0; i < parts; i++) { files.push(loadScript(moduleDir + name + "." + i + ".js")); }
    var p = Promise.all(files).then(function () {
      delete receivers[name];
      var gz = new Blob([fromBase64(got.join(""))]).stream().pipeThrough(new DecompressionStream("gzip"));
      return new Response(gz).arrayBuffer();
    }).then(function (wasm) {
      var go = new Go();
      return WebAssembly.instantiate(wasm, go.importObject).then(function (mod) {
        var started = starting.then(function () {
          return new Promise(function (resolve, reject) {
            window.mcpMain = resolve;
            go.run(mod.instance).then(function () { reject(new Error("the server exited")); });
          });
        });
        starting = started.catch(function () {});
        return started;
      });
    });
    p.catch(function () { delete servers[name]; delete receivers[name]; });
    servers[name] = p;
    return p;
  }

  // jsonLines pretty-prints a JSON text as Go's json.Indent does, two
  // spaces a level, into lines of [class, text] tokens with the classes of
  // the highlighter; it returns null for a text that is not JSON.
  function jsonLines(text) {
    try { JSON.parse(text); } catch (e) { return null; }
    var tokens = text.match(/"(?:[^"\\]|\\.)*"|[{}[\],:]|true|false|null|-?[0-9][0-9.eE+-]*/g) || [];
    var lines = [], line = [], depth = 0;
    function newline() { lines.push(line); line = [["", "  ".repeat(depth)]]; }
    for (var i = 0; i < tokens.length; i++) {
      var t = tokens[i], next = tokens[i + 1];
      if (t === "{" || t === "[") {
        line.push(["p", t]);
        if (next === (t === "{" ? "}" : "]")) { line.push(["p", next]); i++; continue; }
        depth++; newline();
      } else if (t === "}" || t === "]") {
        depth--; newline(); line.push(["p", t]);
      } else if (t === ",") {
        line.push(["p", t]); newline();
      } else if (t === ":") {
        line.push(["p", t], ["", " "]);
      } else if (t[0] === "\"") {
        line.push([next === ":" ? "nt" : "s2", t]);
      } else if (/^[tfn]/.test(t)) {
        line.push(["kc", t]);
      } else {
        line.push([/[.eE]/.test(t) ? "mf" : "mi", t]);
      }
    }
    lines.push(line);
    return lines;
  }
  function lineText(tokens) { return tokens.map(function (t) { return t[1]; }).join(""); }
  // compact joins an edited request into one line: a JSON text loses its
  // whitespace outside strings, anything else its line breaks.
  function compact(text) {
    var lines = jsonLines(text);
    if (!lines) { return text.split("\n").join(" ").trim(); }
    return lines.map(function (l) {
      return l.filter(function (t) { return t[0] !== ""; }).map(function (t) { return t[1]; }).join("");
    }).join("");
  }
  function pretty(text) {
    var lines = jsonLines(text);
    return lines ? lines.map(lineText).join("\n") : text;
  }
  // changedLines marks the lines of b that are not in a longest common
  // subsequence of the lines of a and b.
  function changedLines(a, b) {
    var n = a.length, m = b.length, len = [];
    for (var i = 0; i <= n; i++) { len.push(new Array(m + 1).fill(0)); }
    for (i = n - 1; i >= 0; i--) {
      for (var j = m - 1; j >= 0; j--) {
        len[i][j] = a[i] === b[j] ? len[i + 1][j + 1] + 1 : Math.max(len[i + 1][j], len[i][j + 1]);
      }
    }
    var changed = new Array(m).fill(true);
    for (i = 0, j = 0; i < n && j < m;) {
      if (a[i] === b[j]) { changed[j] = false; i++; j++; } else if (len[i + 1][j] >= len[i][j + 1]) { i++; } else { j++; }
    }
    return changed;
  }
  // codeHTML renders a reply or request as the generator does; lines that
  // are not in the pinned text are marked.
  function codeHTML(text, pinned) {
    var lines = jsonLines(text);
    if (!lines) {
      return "<div class=\"code\"><pre class=\"chroma\"><code>" + escapeHTML(text) + "</code></pre></div>";
    }
    var changed = pinned === undefined ? [] : changedLines(pretty(pinned).split("\n"), lines.map(lineText));
    return "<div class=\"code\"><pre class=\"chroma\"><code>" + lines.map(function (l, i) {
      var indent = /^ */.exec(lineText(l))[0].length;
      return "<span class=\"line" + (changed[i] ? " changed" : "") + "\" style=\"--indent:" + indent + "\"><span class=\"cl\">" +
        l.map(function (t) {
          return t[0] ? "<span class=\"" + t[0] + "\">" + escapeHTML(t[1]) + "</span>" : escapeHTML(t[1]);
        }).join("") + (i < lines.length - 1 ? "\n" : "") + "</span></span>";
    }).join("") + "</code></pre></div>";
  }
  // outcome names what replies tell the client, as mcpc does: a protocol
  // error, a tool error or a result, the worst of a batch.
  function outcome(replies) {
    var worst = "";
    replies.forEach(function (r) {
      var msgs;
      try { msgs = [].concat(JSON.parse(r)); } catch (e) { msgs = []; }
      msgs.forEach(function (m) {
        if (m && m.error) { worst = "protocolError"; }
        else if (m && m.result && m.result.isError === true && worst !== "protocolError") { worst = "toolError"; }
        else if (m && m.result && !worst) { worst = "result"; }
      });
    });
    return worst;
  }
  // showLive puts the live replies to an exchange's request, the pinned one
  // unless edited, beside the pinned reply, and reports whether they are the
  // pinned one. No reply is explained as the pinned transcript explains it
  // (a notification, a cancelled request), or as a notification's.
  function showLive(ex, replies, edited) {
    var old = ex.querySelector(".msg.live");
    if (old) { old.remove(); }
    var same = replies.join("\n") === ex.dataset.reply;
    var kind = outcome(replies);
    var div = document.createElement("div");
    div.className = "msg live" + (same ? "" : " differs");
    div.dataset.outcome = kind || "none";
    div.innerHTML = "<div class=\"label\">" + escapeHTML(body.dataset.live) +
      (kind ? " · <span class=\"outcome\">" + escapeHTML(body.dataset[kind]) + "</span>" : "") + "</div>" +
      (replies.length ? replies.map(function (r) { return codeHTML(r, ex.dataset.reply); }).join("")
        : "<p class=\"noreply\">" + escapeHTML(noReplyText(ex, edited)) + "</p>");
    ex.appendChild(div);
    ex.classList.add("has-live");
    div.querySelectorAll(".code").forEach(addCopyButton);
    watchScroll(div);
    return same;
  }

  function noReplyText(ex, edited) {
    var pinned = ex.querySelector(".msg.res .noreply");
    return pinned && !edited ? pinned.textContent : body.dataset.noReply;
  }

  var editors = {}; // by transcript id: each exchange's opener of a shared request
  document.querySelectorAll(".transcript .run").forEach(function (run) {
    var figure = run.closest("figure");
    var button = run.querySelector(".run-button");
    var status = run.querySelector(".run-status");
    var exchanges = Array.prototype.slice.call(figure.querySelectorAll(".exchange"));
    function say(text, kind) {
      status.textContent = text;
      status.className = "run-status" + (kind ? " " + kind : "");
    }
    function progress(done) {
      var mb = (Number(run.dataset.size) / 1e6).toFixed(1);
      say(body.dataset.loading.replace("%s", mb) + " " + Math.round(done * 100) + " %");
    }
    // send serves lines to a fresh connection of the chapter's server.
    function send(lines) {
      button.disabled = true;
      figure.classList.add("busy");
      return server(run, progress).then(function (srv) {
        say(body.dataset.running);
        return srv.run(lines);
      }).finally(function () {
        button.disabled = false;
        figure.classList.remove("busy");
      });
    }
    function failed(err) { say(body.dataset.runFailed + " " + err.message, "bad"); }

    button.addEventListener("click", function () {
      send(exchanges.map(function (ex) { return ex.dataset.request; })).then(function (after) {
        var match = true;
        exchanges.forEach(function (ex, i) { match = showLive(ex, after[i] || []) && match; });
        say(match ? body.dataset.match : body.dataset.mismatch, match ? "ok" : "bad");
      }).catch(failed);
    });

    // Edit and send: any request can be changed and sent, after the ones
    // before it, to a fresh connection; Reset brings the pinned one back;
    // Share puts the edited request in the page's address (see shareLink).
    editors[figure.id] = exchanges.map(function (ex, i) {
      var req = ex.querySelector(".msg.req");
      var label = req.querySelector(".label");
      var code = req.querySelector(".code");
      var edit = document.createElement("button");
      edit.type = "button";
      edit.className = "edit";
      edit.textContent = body.dataset.edit;
      label.appendChild(edit);
      var editor = null;
      // open shows the editor, holding text if given (the pinned request
      // when it opens), and returns its text area. text only ever becomes
      // the area's value.
      function open(text) {
        if (!editor) {
          editor = document.createElement("div");
          editor.className = "editor";
          editor.innerHTML = "<textarea spellcheck=\"false\" autocapitalize=\"off\"></textarea><div class=\"editor-actions\">" +
            "<button type=\"button\" class=\"send\">" + escapeHTML(body.dataset.send) + "</button>" +
            "<button type=\"button\" class=\"share\">" + escapeHTML(body.dataset.share) + "</button>" +
            "<button type=\"button\" class=\"reset\">" + escapeHTML(body.dataset.reset) + "</button></div>";
          var fresh = editor.querySelector("textarea");
          fresh.setAttribute("aria-label", body.dataset.requestLabel);
          fresh.value = pretty(ex.dataset.request);
          code.hidden = true;
          req.appendChild(editor);
          editor.querySelector(".send").addEventListener("click", sendEdited);
          editor.querySelector(".share").addEventListener("click", shareEdited);
          editor.querySelector(".reset").addEventListener("click", reset);
        }
        var area = editor.querySelector("textarea");
        if (text !== undefined) { area.value = text; }
        area.rows = Math.min(area.value.split("\n").length + 1, 24);
        return area;
      }
      function sendEdited() {
        var area = editor.querySelector("textarea");
        var line = compact(area.value);
        if (!line) { area.focus(); return; }
        shareNote(editor, null);
        var lines = exchanges.slice(0, i).map(function (e) { return e.dataset.request; });
        lines.push(line);
        send(lines).then(function (after) {
          var same = showLive(ex, after[after.length - 1] || [], true);
          say(body.dataset.sent + " " + body.dataset[ex.querySelector(".msg.live").dataset.outcome], same ? "ok" : "");
        }).catch(failed);
      }
      function shareEdited() {
        var area = editor.querySelector("textarea");
        if (!area.value.trim()) { area.focus(); return; }
        var link = shareLink(figure.id, i, area.value);
        if (!link) {
          shareNote(editor, body.dataset.shareTooLongToShare.replace("%s", shareLimit / 1024), "bad");
          return;
        }
        shown = link;
        try {
          history.replaceState(history.state, "", link);
        } catch (e) {
          location.hash = link; // no history here: the location itself
        }
        var address = location.href;
        copyText(address).then(function () {
          shareNote(editor, body.dataset.shareCopied, "ok");
        }, function () {
          // No clipboard: the address, selected, in a field to copy from.
          var note = shareNote(editor, body.dataset.shareCopy);
          var field = document.createElement("input");
          field.type = "text";
          field.readOnly = true;
          field.className = "share-address";
          field.value = address;
          field.setAttribute("aria-label", body.dataset.shareCopy);
          note.appendChild(field);
          field.focus();
          field.select();
        });
      }
      function reset() {
        editor.remove();
        editor = null;
        code.hidden = false;
        var live = ex.querySelector(".msg.live");
        if (live) { live.remove(); }
        ex.classList.remove("has-live");
        say("");
        // The address no longer names what the page shows.
        if (location.hash.indexOf(shareLink(figure.id, i, "")) === 0) {
          try {
            history.replaceState(history.state, "", location.pathname + location.search);
            shown = "";
          } catch (e) { /* the address keeps it */ }
        }
        edit.focus(); // the focus was in the editor, now gone
      }
      edit.addEventListener("click", function () { open().focus(); });
      // The opener of a shared request: it fills the editor and says that
      // nothing has run.
      return function (text) {
        var handshake = ex.closest("details.handshake");
        if (handshake) { handshake.open = true; }
        var area = open(text);
        var live = ex.querySelector(".msg.live");
        if (live) { live.remove(); }
        ex.classList.remove("has-live");
        say("");
        shareNote(editor, body.dataset.shareOpened);
        figure.scrollIntoView({ block: "start" });
        area.focus({ preventScroll: true });
      };
    });
  });

  // A shared request travels in the page's address, in the fragment (which
  // a page opened from file:// keeps too):
  //
  //	#share:<transcript id>:<exchange number, from 1>:<request text>
  //
  // the text as UTF-8 in base64url without padding, at most shareLimit
  // bytes. No id of the site holds a colon, so no heading or transcript is
  // ever named so. Opening such an address fills in that exchange's editor
  // and runs nothing; one that cannot be read says why, and fills nothing.
  var shareLimit = 16 * 1024;
  var sharePrefix = "#share:";
  var shown = ""; // the fragment the page shows, set by Share or opened
  function shareLink(id, i, text) {
    if (!text) { return sharePrefix + id + ":" + (i + 1) + ":"; }
    var bytes = new TextEncoder().encode(text);
    if (bytes.length > shareLimit) { return ""; }
    var bin = "";
    for (var k = 0; k < bytes.length; k++) { bin += String.fromCharCode(bytes[k]); }
    return shareLink(id, i, "") + btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }
  // readShared returns the request text of a shared fragment's payload, or
  // an error: "long" past shareLimit, "bad" for anything else.
  function readShared(payload) {
    if (payload.length > Math.ceil(shareLimit * 4 / 3)) { return { error: "long" }; }
    if (!payload || !/^[A-Za-z0-9_-]*$/.test(payload) || payload.length % 4 === 1) { return { error: "bad" }; }
    try {
      var bin = atob(payload.replace(/-/g, "+").replace(/_/g, "/"));
      var bytes = new Uint8Array(bin.length);
      for (var k = 0; k < bin.length; k++) { bytes[k] = bin.charCodeAt(k); }
      if (bytes.length > shareLimit) { return { error: "long" }; }
      var text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
      return text.trim() ? { text: text } : { error: "bad" };
    } catch (e) {
      return { error: "bad" };
    }
  }
  // shareNote says text in a polite status line: in an editor (where is
  // the editor), which its text area then names as its description, or
  // before a transcript or another element of the article; null removes
  // the line. It returns the line.
  var noteCount = 0;
  function shareNote(where, text, kind) {
    var inEditor = where.classList.contains("editor");
    var old = inEditor ? where.querySelector(".share-note") : where.previousElementSibling;
    if (old && old.classList.contains("share-note")) { old.remove(); }
    var area = inEditor ? where.querySelector("textarea") : null;
    if (area) { area.removeAttribute("aria-describedby"); }
    if (text === null) { return null; }
    var note = document.createElement("p");
    note.className = "share-note" + (kind ? " " + kind : "");
    note.id = "share-note-" + (++noteCount);
    note.setAttribute("role", "status");
    note.textContent = text;
    if (inEditor) {
      where.appendChild(note);
      area.setAttribute("aria-describedby", note.id);
    } else {
      where.parentNode.insertBefore(note, where);
    }
    return note;
  }
  // openShared opens the request the address shares, if it does.
  function openShared() {
    var hash = location.hash.replace(/%3A/gi, ":"); // as some tools write the colons
    if (hash.indexOf(sharePrefix) !== 0) { shown = ""; return; }
    if (hash === shown) { return; }
    shown = hash;
    document.querySelectorAll(".share-note").forEach(function (old) { old.remove(); });
    var parts = hash.slice(sharePrefix.length).split(":");
    var id = parts[0], n = Number(parts[1]);
    var title = document.querySelector("article h1");
    var opens = Object.prototype.hasOwnProperty.call(editors, id) ? editors[id] : null;
    var figure = opens && document.getElementById(id);
    function fail(text, at) {
      shareNote(at, text, "bad").scrollIntoView({ block: "start" });
    }
    if (!opens) {
      if (title) { fail(body.dataset.shareUnknown.replace("%s", id.slice(0, 80)), title.nextElementSibling || title); }
      return;
    }
    if (parts.length !== 3 || !/^[1-9][0-9]*$/.test(parts[1]) || n > opens.length) { fail(body.dataset.shareMalformed, figure); return; }
    var got = readShared(parts[2]);
    if (got.error === "long") { fail(body.dataset.shareTooLong.replace("%s", shareLimit / 1024), figure); return; }
    if (got.error) { fail(body.dataset.shareMalformed, figure); return; }
    shareNote(figure, null);
    opens[n - 1](got.text);
  }
  openShared();
  window.addEventListener("hashchange", openShared);
}());