// The trace stepper of boolprog's HTML report. The trace is the JSON in
// #trace-data (htmlreport.TraceData); everything else is in the page.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("trace-data").textContent || "{}");
  var steps = data.steps || [];
  var sel = document.getElementById("proc");
  var note = document.getElementById("cfgnote");

  function $(id) { return document.getElementById(id); }
  function text(i) { return data.texts[i]; }
  function procName(p) { return p >= 0 ? data.procs[p] : "?"; }
  function clear(el) { while (el.firstChild) { el.removeChild(el.firstChild); } }
  // Scrolls container (not the window) so that el is in view, centred
  // if it was out of view.
  function reveal(container, el) {
    if (!container || !el) { return; }
    var c = container.getBoundingClientRect(), r = el.getBoundingClientRect();
    if (r.top < c.top || r.bottom > c.bottom) { container.scrollTop += r.top - c.top - (c.height - r.height) / 2; }
    if (r.left < c.left || r.right > c.right) { container.scrollLeft += r.left - c.left - (c.width - r.width) / 2; }
  }
  function add(parent, tag, cls, txt) {
    var el = document.createElement(tag);
    if (cls) { el.className = cls; }
    if (txt !== undefined) { el.textContent = txt; }
    parent.appendChild(el);
    return el;
  }

  // Shows the drawing of procedure p, if it has one.
  function showGraph(p) {
    var shown = document.querySelectorAll(".cfa.show");
    for (var i = 0; i < shown.length; i++) { shown[i].classList.remove("show"); }
    var g = $("cfa" + p);
    if (g) {
      g.classList.add("show");
      if (sel) { sel.value = String(p); }
      if (note) { note.hidden = true; }
    } else if (note) {
      note.textContent = "The graph of " + procName(p) + " is not drawn (see the note above).";
      note.hidden = false;
    }
  }
  if (sel) { sel.addEventListener("change", function () { showGraph(Number(sel.value)); }); }
  if (steps.length === 0) { return; }

  var cur = -1;
  var maxIndent = 16;
  var marked = [];
  function mark(el, cls) { if (el) { el.classList.add(cls); marked.push([el, cls]); } }
  function unmarkAll() {
    for (var i = 0; i < marked.length; i++) { marked[i][0].classList.remove(marked[i][1]); }
    marked = [];
  }

  // The step list, built once.
  var list = $("steplist");
  var items = [];
  var multi = false;
  for (var i = 0; i < steps.length; i++) { if (steps[i].h) { multi = true; break; } }
  // Built off the document and added at once: 13,204 steps for T(400).
  var frag = document.createDocumentFragment();
  steps.forEach(function (s, i) {
    var li = add(frag, "div");
    add(li, "span", "no", (i + 1) + ".");
    // Indented by call depth, as the text trace: past maxIndent levels,
    // "[depth N]" instead.
    var pad = "";
    for (var k = 0; k < Math.min(s.d || 0, maxIndent); k++) { pad += "  "; }
    if ((s.d || 0) > maxIndent) { pad += "[depth " + s.d + "] "; }
    if (multi) { add(li, "span", "th" + (s.s ? " switch" : ""), (s.s ? "⇄ " : "") + "T" + (s.h || 0)); }
    li.appendChild(document.createTextNode(pad + (s.x ? "* " : "") + "line " + s.n + " " + procName(s.p) + ": " + text(s.t)));
    li.addEventListener("click", function () { go(i); });
    items.push(li);
  });
  list.appendChild(frag);

  function values(s) {
    var body = $("values").tBodies[0];
    clear(body);
    var proc = s.p >= 0 ? s.p : -1;
    s.v.forEach(function (code, k) {
      var tr = add(body, "tr", code & 2 ? "chg" : "");
      add(tr, "td", "", data.shown[code >> 2]);
      add(tr, "td", "v", String(code & 1));
      add(tr, "td", "scope", k < (s.g || 0) ? "global" : "local of " + procName(proc));
    });
  }
  function go(i) {
    if (i < 0 || i >= steps.length) { return; }
    cur = i;
    var s = steps[i];
    unmarkAll();
    $("stepno").textContent = (i + 1) + " of " + steps.length;
    $("pos").textContent = "step " + (i + 1) + " of " + steps.length;
    $("slider").value = i + 1;
    $("prev").disabled = $("first").disabled = i === 0;
    $("next").disabled = $("last").disabled = $("over").disabled = i === steps.length - 1;
    $("out").disabled = i === steps.length - 1 || !s.d;
    var last = i === steps.length - 1;
    $("where").textContent = "line " + s.n + " · " + procName(s.p) + (last ? " · the error" : "");
    $("stmt").textContent = (s.x ? "* " : "") + "line " + s.n + ":" + s.c + "  " + text(s.t) + (s.o ? "  (" + text(s.o - 1) + ")" : "") + (last ? "  ← the error" : "");
    var th = $("thread");
    clear(th);
    if (multi || s.s) {
      add(th, "span", "", "thread " + (s.h || 0));
      if (s.s) {
        var from = i > 0 ? steps[i - 1].h || 0 : 0;
        add(th, "span", "switch", "  ⇄ context switch from thread " + from);
      }
    }
    // The call stack: this step, then each caller.
    var stack = $("stack");
    clear(stack);
    for (var j = i, n = 0; j >= 0 && n < 200; j = steps[j].u, n++) {
      var f = steps[j];
      var li = add(stack, "li");
      var a = add(li, "a", "", procName(f.p) + " · line " + f.n + (j === i ? "" : "  (call: " + text(f.t) + ")"));
      a.href = "#L" + f.n;
      a.addEventListener("click", (function (n) {
        return function (e) { e.preventDefault(); reveal($("source"), $("L" + n)); };
      })(f.n));
      if (j !== i) { mark($("g" + f.p + "n" + f.l), "stk"); }
    }
    values(s);
    // The source.
    var line = $("L" + s.n);
    mark(line, "cur");
    reveal($("source"), line);
    // The graph: the step's location and edge.
    showGraph(s.p);
    var node = $("g" + s.p + "n" + s.l);
    mark(node, "cur");
    if (s.e >= 0) { mark($("g" + s.p + "e" + s.e), "cur"); }
    // The node in view: scrolled within its drawing, and the drawing
    // within the side pane, where the state above it may be tall on a
    // long trace (a deep call stack, many variables).
    reveal($("cfa" + s.p), node);
    reveal(document.querySelector("aside"), node);
    mark(items[i], "cur");
    reveal(list, items[i]);
    if (history.replaceState) { history.replaceState(null, "", "#step" + (i + 1)); }
  }

  // The next step of the same thread at a call depth of at most d, or
  // the last step.
  function nextAt(i, d) {
    var h = steps[i].h || 0;
    for (var j = i + 1; j < steps.length; j++) {
      if ((steps[j].h || 0) === h && (steps[j].d || 0) <= d) { return j; }
    }
    return steps.length - 1;
  }
  function nextSwitch() {
    for (var j = cur + 1; j < steps.length; j++) {
      if (steps[j].s) { go(j); return; }
    }
  }
  function over() { go(nextAt(cur, steps[cur].d || 0)); }
  function out() { go(nextAt(cur, (steps[cur].d || 0) - 1)); }

  $("first").addEventListener("click", function () { go(0); });
  $("over").addEventListener("click", over);
  $("out").addEventListener("click", out);
  if ($("switch")) { $("switch").addEventListener("click", nextSwitch); }
  $("prev").addEventListener("click", function () { go(cur - 1); });
  $("next").addEventListener("click", function () { go(cur + 1); });
  $("last").addEventListener("click", function () { go(steps.length - 1); });
  $("slider").addEventListener("input", function () { go(Number($("slider").value) - 1); });
  document.addEventListener("keydown", function (e) {
    if (e.target && (e.target.tagName === "INPUT" || e.target.tagName === "SELECT") && e.target.id !== "slider") { return; }
    switch (e.key) {
      case "ArrowRight": case "j": go(cur + 1); break;
      case "ArrowLeft": case "k": go(cur - 1); break;
      case "o": over(); break;
      case "u": out(); break;
      case "s": nextSwitch(); break;
      case "Home": go(0); break;
      case "End": go(steps.length - 1); break;
      default: return;
    }
    e.preventDefault();
  });
  var m = /^#step(\d+)$/.exec(location.hash);
  go(m ? Math.min(Math.max(Number(m[1]) - 1, 0), steps.length - 1) : 0);
})();
