// The playground page: an editor, example programs, the engine and limits,
// and the result of a check with its trace stepping over the source. The
// checker runs in worker.js (WebAssembly); this file only shows things.
'use strict';

const $ = (id) => document.getElementById(id);
const el = (tag, cls, text) => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
};

const state = {
  worker: null,
  ready: false,
  busy: false,
  nextId: 1,
  examples: [],
  example: null, // the example the editor holds unchanged (null: the user's own program)
  engines: [],
  checked: null, // {source, report, response}
  step: 0,
  // Timings, read by the browser test (playground/browser_test.go).
  timings: { pageStart: performance.now(), loadMs: null, readyAt: null, checks: [] },
};
window.boolprogPlayground = state;

// ---- the checker ----

function startWorker() {
  state.ready = false;
  updateButtons();
  const w = new Worker('worker.js');
  w.onmessage = (e) => onWorkerMessage(w, e.data);
  w.onerror = (e) => setStatus('the checker failed: ' + e.message);
  state.worker = w;
}

function onWorkerMessage(w, msg) {
  if (w !== state.worker) return; // a stopped worker's last words
  switch (msg.type) {
    case 'ready':
      state.ready = true;
      state.timings.loadMs = msg.loadMs;
      state.timings.readyAt = performance.now() - state.timings.pageStart;
      if (state.engines.length === 0) fillEngines(msg.engines);
      setStatus(`checker loaded in ${Math.round(msg.loadMs)} ms`);
      document.body.dataset.ready = 'true';
      updateButtons();
      break;
    case 'fatal':
      setStatus('the checker could not start: ' + msg.message);
      break;
    case 'html':
      downloadHTML(msg.html);
      break;
    case 'crash':
      state.busy = false;
      showVerdict('error', 'the checker crashed', msg.message);
      startWorker();
      break;
    case 'result':
      state.busy = false;
      state.timings.checks.push({ id: msg.id, ms: msg.ms, checkMs: msg.response.check_ms });
      showResponse(msg.response, msg.ms);
      updateButtons();
      break;
  }
}

function check() {
  if (!state.ready || state.busy) return;
  const source = $('source').value;
  const timeout = parseFloat($('timeout').value);
  const request = {
    source,
    filename: $('filename').textContent,
    target: $('target').value.trim(),
    engine: $('engine').value,
    bound: $('bound').value.trim(),
    timeout_ms: timeout > 0 ? Math.round(timeout * 1000) : 0,
  };
  state.busy = true;
  state.checked = { source };
  updateButtons();
  showRunning();
  state.worker.postMessage({ id: state.nextId++, request });
}

function requestHTML() {
  if (!state.ready || state.busy || !state.checked || !state.checked.report) return;
  state.worker.postMessage({ type: 'html' });
}

function downloadHTML(html) {
  if (!html) return;
  const url = URL.createObjectURL(new Blob([html], { type: 'text/html' }));
  const a = el('a');
  a.href = url;
  a.download = ($('filename').textContent.split('/').pop() || 'input.bp').replace(/\.bp$/, '') + '.html';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60000);
  state.lastHTMLSize = html.length; // read by the browser test
}

function stop() {
  if (!state.busy) return;
  state.worker.terminate();
  state.busy = false;
  showVerdict('unknown', 'VERIFICATION UNKNOWN: interrupted', 'stopped from the page; the checker restarts');
  startWorker();
}

function updateButtons() {
  $('check').disabled = !state.ready || state.busy;
  // A disabled button says why.
  $('check').title = !state.ready ? 'the checker is still loading (see the status beside)'
    : state.busy ? 'a check is running: Stop ends it' : 'check the program (Ctrl+Enter)';
  $('stop').disabled = !state.busy;
  $('html-report').disabled = !state.ready || state.busy || !(state.checked && state.checked.report);
}

// setStatus shows text beside the buttons; while the checker loads, it
// says so first, whatever else is shown (an example's note).
function setStatus(text) {
  $('status').textContent = state.ready ? text : 'loading the checker…' + (text ? ' · ' + text : '');
}

// ---- examples and engines ----

async function loadExamples() {
  let list = [];
  try {
    const r = await fetch('examples.json');
    if (r.ok) list = await r.json();
  } catch (e) { /* the page works without examples */ }
  state.examples = list;
  const sel = $('example');
  const groups = new Map();
  list.forEach((ex, i) => {
    if (!groups.has(ex.group)) {
      const g = el('optgroup');
      g.label = ex.group;
      groups.set(ex.group, g);
      sel.appendChild(g);
    }
    const o = el('option', '', ex.name + (ex.expect ? ` (${ex.expect})` : ''));
    o.value = String(i);
    groups.get(ex.group).appendChild(o);
  });
  const first = list.findIndex((ex) => ex.name === 'bebop-fig1.bp');
  if (first >= 0 && $('source').value === '') {
    sel.value = String(first);
    pickExample();
  }
}

function pickExample() {
  const v = $('example').value;
  const ex = v === '' ? null : state.examples[Number(v)];
  if (!ex) {
    ownProgram();
    setStatus('');
    return;
  }
  state.example = ex;
  $('source').value = ex.source;
  $('target').value = ex.target || '';
  $('filename').textContent = ex.file;
  $('engine').value = ex.engine || '';
  $('bound').value = ex.bound || '';
  updateGutter([]);
  showEdit();
  clearResult();
  setStatus(ex.note || (ex.expect ? `expected: ${ex.expect}` : ''));
}

// ownProgram makes the editor's text the user's own program: the
// example's file name goes (diagnostics name input.bp), and so does its
// target label unless the user set another one (a label the program may
// not have: "target label R occurs nowhere"). The engine and the bound
// stay: they fail on no program.
function ownProgram() {
  const ex = state.example;
  state.example = null;
  $('filename').textContent = 'input.bp';
  if (ex && $('target').value.trim() === (ex.target || '')) $('target').value = '';
}

function fillEngines(engines) {
  state.engines = engines;
  const sel = $('engine');
  const def = engines.find((e) => e.Default);
  sel.options[0].textContent = `default (${def ? def.Name : 'summary'}; threads: explicit, then conc-eager)`;
  for (const e of engines) {
    const o = el('option', '', e.Name + (e.Aliases && e.Aliases.length ? ` (${e.Aliases.join(', ')})` : ''));
    o.value = e.Name;
    o.title = e.Doc;
    sel.appendChild(o);
  }
}

// ---- the editor ----

function updateGutter(badLines) {
  const n = $('source').value.split('\n').length;
  const bad = new Set(badLines);
  const g = $('gutter');
  g.textContent = '';
  for (let i = 1; i <= n; i++) {
    const s = el('span', bad.has(i) ? 'bad' : '', String(i));
    g.appendChild(s);
    g.appendChild(document.createTextNode('\n'));
  }
  g.scrollTop = $('source').scrollTop;
}

function goToLine(line, col) {
  showEdit();
  const ta = $('source');
  const lines = ta.value.split('\n');
  let pos = 0;
  for (let i = 0; i < Math.min(line - 1, lines.length); i++) pos += lines[i].length + 1;
  pos += Math.max(0, (col || 1) - 1);
  ta.focus();
  ta.setSelectionRange(pos, pos);
  ta.scrollTop = Math.max(0, (line - 5) * 18);
}

function showEdit() {
  $('editor').hidden = false;
  $('trace-view').hidden = true;
  $('tab-edit').classList.add('active');
  $('tab-trace').classList.remove('active');
}

function showTraceView() {
  if ($('tab-trace').disabled) return;
  $('editor').hidden = true;
  $('trace-view').hidden = false;
  $('tab-trace').classList.add('active');
  $('tab-edit').classList.remove('active');
  showStep(state.step);
}

// ---- results ----

function clearResult() {
  showVerdict('none', 'No check yet.', '');
  $('diagnostics').textContent = '';
  $('trace').hidden = true;
  $('tab-trace').disabled = true;
  $('output').textContent = '';
  $('stats').textContent = '';
}

function showRunning() {
  clearResult();
  showVerdict('running', 'checking…', '');
}

function showVerdict(cls, banner, detail) {
  const v = $('verdict');
  v.className = 'verdict ' + cls;
  v.textContent = banner;
  if (detail) v.appendChild(el('span', 'detail', detail));
}

function showResponse(resp, ms) {
  const rep = resp.report || {};
  $('output').textContent = resp.text;
  const diags = $('diagnostics');
  diags.textContent = '';
  const bad = [];
  for (const e of rep.errors || []) {
    addDiagnostic(diags, 'error', e);
    if (e.line) bad.push(e.line);
  }
  for (const w of rep.warnings || []) addDiagnostic(diags, 'warning', w);
  updateGutter(bad);
  if (!rep.verdict) {
    showVerdict('error', resp.exit_code === 2 ? 'input error' : 'bad options', (rep.errors || []).map(fmtDiag).join('\n'));
    setStatus(`answered in ${Math.round(ms)} ms`);
    return;
  }
  const banner = resp.text.trimEnd().split('\n').pop();
  let detail = '';
  if (rep.property) detail = `${rep.property.kind === 'label' ? 'label ' + rep.property.label + ' reached' : rep.property.text + ' fails'} at line ${rep.property.line} (${rep.property.proc})`;
  if (rep.verdict === 'unknown' && rep.reason) detail = rep.reason;
  showVerdict(rep.verdict, banner, detail);
  $('stats').textContent = fmtStats(rep);
  setStatus(`${rep.engine}: answered in ${Math.round(ms)} ms`);
  state.checked.report = rep;
  const steps = rep.trace || [];
  if (steps.length > 0) {
    buildTrace(state.checked.source, steps, rep.property);
    $('tab-trace').disabled = false;
    $('trace').hidden = false;
    state.step = steps.length - 1;
    showTraceView();
  }
}

function fmtDiag(d) {
  let s = d.file || '';
  if (d.line) s += `:${d.line}:${d.col}`;
  return (s ? s + ': ' : '') + d.message;
}

function addDiagnostic(list, cls, d) {
  const li = el('li', cls, fmtDiag(d));
  if (d.line) li.onclick = () => goToLine(d.line, d.col);
  list.appendChild(li);
}

function fmtStats(rep) {
  const s = rep.stats || {};
  const lines = [`engine: ${rep.engine}`, `time: ${((s.time_ns || 0) / 1e6).toFixed(1)} ms`];
  for (const [k, v] of Object.entries(s.phases_ns || {})) lines.push(`  ${k}: ${(v / 1e6).toFixed(2)} ms`);
  lines.push(`states: ${s.states || 0}`);
  for (const [k, v] of Object.entries(s.counters || {})) lines.push(`${k}: ${v}`);
  return lines.join('\n');
}

// Names as the source spells them: braced names get their braces back.
function displayName(n) { return /^[A-Za-z_$][A-Za-z0-9_$#-]*$/.test(n) ? n : '{' + n + '}'; }

function valuesText(vals) { return vals.map((v) => `${displayName(v.name)}=${v.value ? 1 : 0}`).join(' '); }

function stepText(s, concurrent) {
  return `${s.switch ? '<switch> ' : ''}${concurrent ? 'Thread ' + s.thread + ' ' : ''}Line ${s.line} ${s.proc}: ${s.text}`;
}

function buildTrace(source, steps, property) {
  state.steps = steps;
  state.concurrent = steps.some((s) => s.thread !== 0);
  const view = $('trace-view');
  view.textContent = '';
  state.lineEls = [];
  const lines = source.split('\n');
  const visited = new Set(steps.map((s) => s.line));
  lines.forEach((text, i) => {
    const line = el('div', 'line');
    if (visited.has(i + 1)) line.classList.add('visited');
    if (property && property.line === i + 1) line.classList.add('error');
    line.appendChild(el('span', 'ln', String(i + 1)));
    line.appendChild(el('span', 'src', text));
    line.appendChild(el('span', 'annot'));
    view.appendChild(line);
    state.lineEls.push(line);
  });
  const list = $('steps');
  list.textContent = '';
  steps.forEach((s, i) => {
    const li = el('li', s.switch ? 'switch' : '', '  '.repeat(Math.min(s.depth, 16)) + stepText(s, state.concurrent) + '  State ' + valuesText(s.values));
    li.onclick = () => showStep(i);
    list.appendChild(li);
  });
}

function showStep(i) {
  const steps = state.steps || [];
  if (steps.length === 0) return;
  i = Math.max(0, Math.min(i, steps.length - 1));
  state.step = i;
  const s = steps[i];
  $('step-label').textContent = `step ${i + 1} of ${steps.length}`;
  $('step-info').textContent = (i === steps.length - 1 ? 'the error: ' : '') + stepText(s, state.concurrent);
  // The values just before the step; those the previous step of the same
  // procedure activation changed are marked.
  const prev = i > 0 && steps[i - 1].proc === s.proc && steps[i - 1].depth === s.depth && steps[i - 1].thread === s.thread ? steps[i - 1] : null;
  const tbody = $('values').tBodies[0];
  tbody.textContent = '';
  for (const v of s.values) {
    const before = prev && prev.values.find((p) => p.name === v.name);
    const tr = el('tr', before && before.value !== v.value ? 'changed' : '');
    tr.appendChild(el('td', '', displayName(v.name)));
    tr.appendChild(el('td', '', v.value ? '1 (T)' : '0 (F)'));
    tbody.appendChild(tr);
  }
  for (const li of $('steps').querySelectorAll('li.current')) li.classList.remove('current');
  const li = $('steps').children[i];
  if (li) {
    li.classList.add('current');
    li.scrollIntoView({ block: 'nearest' });
  }
  for (const l of state.lineEls || []) {
    l.classList.remove('current');
    l.querySelector('.annot').textContent = '';
  }
  const line = (state.lineEls || [])[s.line - 1];
  if (line) {
    line.classList.add('current');
    line.querySelector('.annot').textContent = `// ${state.concurrent ? 'thread ' + s.thread + ', ' : ''}${valuesText(s.values)}`;
    if (!$('trace-view').hidden) line.scrollIntoView({ block: 'nearest' });
  }
}

// ---- wiring ----

function init() {
  $('check').onclick = check;
  $('stop').onclick = stop;
  $('html-report').onclick = requestHTML;
  $('example').onchange = pickExample;
  $('tab-edit').onclick = showEdit;
  $('tab-trace').onclick = showTraceView;
  $('first').onclick = () => showStep(0);
  $('prev').onclick = () => showStep(state.step - 1);
  $('next').onclick = () => showStep(state.step + 1);
  $('last').onclick = () => showStep(Infinity);
  const ta = $('source');
  ta.addEventListener('input', () => {
    updateGutter([]);
    $('example').value = '';
    ownProgram();
  });
  ta.addEventListener('scroll', () => { $('gutter').scrollTop = ta.scrollTop; });
  ta.addEventListener('keydown', (e) => {
    if (e.key === 'Tab' && !e.shiftKey) {
      e.preventDefault();
      ta.setRangeText('  ', ta.selectionStart, ta.selectionEnd, 'end');
      updateGutter([]);
    } else if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      check();
    }
  });
  document.addEventListener('keydown', (e) => {
    if ($('trace').hidden || e.target === ta || e.target.tagName === 'INPUT' || e.target.tagName === 'SELECT') return;
    const moves = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
    if (e.key in moves) { showStep(state.step + moves[e.key]); e.preventDefault(); }
    if (e.key === 'Home') showStep(0);
    if (e.key === 'End') showStep(Infinity);
  });
  updateGutter([]);
  startWorker();
  loadExamples();
}

init();
