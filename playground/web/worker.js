// The checker's Web Worker: loads boolprog.wasm (package
// playground/wasm) and answers the page's check requests one at a time.
// A check keeps this worker busy until it ends; the page stops one by
// ending the worker and starting a new one.
importScripts('wasm_exec.js');

const started = performance.now();
const ready = (async () => {
  const go = new Go();
  const { instance } = await WebAssembly.instantiateStreaming(fetch('boolprog.wasm'), go.importObject);
  go.run(instance); // runs main until it waits for requests
  postMessage({
    type: 'ready',
    engines: JSON.parse(self.boolprogEngines()),
    loadMs: performance.now() - started,
  });
})().catch((err) => postMessage({ type: 'fatal', message: String(err && err.stack || err) }));

onmessage = async (e) => {
  await ready;
  if (e.data.type === 'html') {
    postMessage({ type: 'html', html: self.boolprogHTML() });
    return;
  }
  const t = performance.now();
  try {
    const out = await self.boolprogCheck(JSON.stringify(e.data.request));
    postMessage({ type: 'result', id: e.data.id, response: JSON.parse(out), ms: performance.now() - t });
  } catch (err) {
    // The Go program has ended (it should not): the page restarts us.
    postMessage({ type: 'crash', id: e.data.id, message: String(err && err.stack || err) });
  }
};
