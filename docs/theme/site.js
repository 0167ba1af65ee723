// The guide's script: copy buttons, search, the page menu, the table of
// contents' highlight, and the Run buttons of a locally served site. The
// pages read fine without it.
(function () {
  "use strict";
  var body = document.body;
  var root = body.dataset.root || "";

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
    if (pre.innerText.trim().indexOf("\n") < 0) { block.classList.add("one-line"); }
    var button = document.createElement("button");
    button.type = "button";
    button.className = "copy";
    button.textContent = body.dataset.copy;
    button.addEventListener("click", function () {
      var text = pre.innerText.replace(/\n$/, "");
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
  }

  // Close the language list when clicking elsewhere.
  document.addEventListener("click", function (e) {
    document.querySelectorAll("details.langs[open]").forEach(function (d) {
      if (!d.contains(e.target)) { d.removeAttribute("open"); }
    });
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
  // search returns the best entries holding every term (lower case).
  function search(terms) {
    var hits = [];
    (window.guideSearchIndex || []).forEach(function (e) {
      var head = (e.p + " " + e.h).toLowerCase();
      var text = e.t.toLowerCase();
      var score = 0;
      for (var i = 0; i < terms.length; i++) {
        var inHead = head.indexOf(terms[i]) >= 0;
        var inText = text.indexOf(terms[i]) >= 0;
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
    if (!query) { list.hidden = true; list.innerHTML = ""; return; }
    var terms = query.toLowerCase().split(/\s+/).filter(Boolean);
    var hits = search(terms);
    list.innerHTML = hits.length ? hits.map(function (e) {
      return "<li><a href=\"" + escapeHTML(root + e.u) + "\"><span class=\"where\">" + escapeHTML(e.p) +
        "</span><span class=\"heading\">" + mark(e.h || e.p, terms) + "</span><span class=\"snippet\">" +
        mark(snippet(e.t, terms[0]), terms) + "</span></a></li>";
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

  // Run buttons: send a transcript's requests to the chapter's real server,
  // through the local docs server, and show the live responses beside the
  // pinned ones.
  document.querySelectorAll(".run-button").forEach(function (button) {
    var figure = button.closest("figure");
    var status = figure.querySelector(".run-status");
    button.addEventListener("click", function () {
      button.disabled = true;
      status.className = "run-status";
      status.textContent = body.dataset.running;
      fetch(root + "api/run", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ key: button.dataset.key })
      }).then(function (r) { return r.json(); }).then(function (res) {
        if (res.error) { throw new Error(res.error); }
        figure.querySelectorAll(".exchange").forEach(function (ex, i) {
          var old = ex.querySelector(".msg.live");
          if (old) { old.remove(); }
          var got = res.exchanges[i] || { html: "", same: false };
          var pinnedNone = ex.querySelector(".msg.res .noreply"); // says why none is owed
          var none = pinnedNone ? pinnedNone.textContent : body.dataset.noReply;
          var div = document.createElement("div");
          div.className = "msg live" + (got.same ? "" : " differs");
          div.innerHTML = "<div class=\"label\">" + escapeHTML(body.dataset.live) + "</div>" +
            (got.html || "<p class=\"noreply\">" + escapeHTML(none) + "</p>");
          ex.appendChild(div);
          ex.classList.add("has-live");
          div.querySelectorAll(".code").forEach(addCopyButton);
        });
        status.textContent = res.match ? body.dataset.match : body.dataset.mismatch;
        status.className = "run-status " + (res.match ? "ok" : "bad");
      }).catch(function (err) {
        status.textContent = body.dataset.runFailed + " " + err.message;
        status.className = "run-status bad";
      }).then(function () { button.disabled = false; });
    });
  });
}());
