// The service worker of w-diet (issue 16), served at /sw.js by OfflineController, which puts
// VERSION (the ?v= of every asset link) and ASSETS (the app shell's files) on the first lines:
// every deploy is a new worker that drops the old caches.
//
// - The app shell (/assets/*?v=VERSION) is cache-first; the main pages are network-first and
//   their last copy, stamped with the time it was fetched, is the fallback when offline.
// - A meal or weight form whose POST fails at the network level is kept in IndexedDB (with the
//   client_id the page gave it and logged_at, the local moment it was logged) and replayed in
//   order, one at a time, with the CSRF token of the current page (never a stored one): when a
//   page asks, and when Background Sync fires.
"use strict";

const SHELL = "wdiet-shell-" + VERSION;
const PAGES = "wdiet-pages-" + VERSION;
const PAGE_PATHS = ["/", "/meals", "/progress", "/weight", "/log"];
const LOGGING = [/^\/log\/food\/[^/]+$/, /^\/log\/manual$/, /^\/log\/recipe\/[^/]+$/, /^\/log\/text$/,
  /^\/meals\/[0-9A-Fa-f-]{36}\/again$/, /^\/weight$/];
const FETCHED = "X-Wdiet-Fetched";
const SYNC_TAG = "wdiet-replay";
const NETWORK_WAIT_MS = 4000;

// When the page a window shows came from the cache (by client id).
const servedFromCache = new Map();

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const shell = await caches.open(SHELL);
    await shell.addAll(ASSETS.map((name) => "/assets/" + name + "?v=" + VERSION));
    // the main pages too, so that one not visited yet opens offline (best effort)
    await Promise.all(PAGE_PATHS.map((path) => fetch(path, { credentials: "same-origin" })
      .then((response) => keepPage(path, response)).catch(() => undefined)));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("wdiet-") && name !== SHELL && name !== PAGES) { await caches.delete(name); }
    }
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) { return; }
  if (request.method === "POST") {
    if (request.mode === "navigate" && LOGGING.some((pattern) => pattern.test(url.pathname))) {
      event.respondWith(postOrKeep(request, url));
    }
    return;
  }
  if (request.method !== "GET") { return; }
  if (url.pathname.startsWith("/assets/") && url.searchParams.get("v") === VERSION) {
    event.respondWith(cacheFirst(request));
  } else if (request.mode === "navigate") {
    event.respondWith(networkFirst(event, url));
  }
});

async function cacheFirst(request) {
  const shell = await caches.open(SHELL);
  const cached = await shell.match(request);
  if (cached) { return cached; }
  const response = await fetch(request);
  if (response.ok) { await shell.put(request, response.clone()); }
  return response;
}

/**
 * The network's page, else (no network, or no answer within NETWORK_WAIT_MS: a dead spot where
 * requests hang rather than fail) the stored copy of this page or the dashboard.
 */
async function networkFirst(event, url) {
  const keep = PAGE_PATHS.includes(url.pathname) && !url.search;
  const network = fetch(event.request).then((response) => {
    if (keep) { later(event, keepPage(url.pathname, response.clone())); }
    if (signedOut(url, response)) { later(event, caches.delete(PAGES)); }
    return response;
  });
  try {
    const response = await Promise.race([network, new Promise((resolve) => { setTimeout(resolve, NETWORK_WAIT_MS, null); })]);
    if (response) { return response; }
  } catch (error) {
    // no network: the stored copy below
  }
  const pages = await caches.open(PAGES);
  const cached = (await pages.match(url.pathname)) || (await pages.match("/"));
  if (!cached) { return network; }
  servedFromCache.set(event.resultingClientId || event.clientId, Number(cached.headers.get(FETCHED)) || 0);
  return cached;
}

/**
 * Whether this navigation shows that the browser is signed out (the sign-in or setup page, asked
 * for or redirected to): the copies of the pages hold the user's data, so they go; the entries
 * waiting to be saved stay and are sent after the next sign-in.
 */
function signedOut(url, response) {
  const shown = new URL(response.url || url.href).pathname;
  return response.ok && (shown === "/signin" || shown === "/setup");
}

/** Keeps the worker alive for `promise` when the event still allows it (a late answer may not). */
function later(event, promise) {
  try {
    event.waitUntil(promise);
  } catch (error) {
    promise.catch(() => undefined);
  }
}

/** Keeps a page's copy with the time it was fetched; only a whole page of the app (no redirect). */
async function keepPage(path, response) {
  const type = response.headers.get("Content-Type") || "";
  if (response.status !== 200 || response.redirected || response.type !== "basic" || !type.startsWith("text/html")) {
    // an unread body holds its connection: with six per host, a few unread refusals (401 before
    // sign-in) would stall every later request of the worker
    if (response.body) { await response.body.cancel().catch(() => undefined); }
    return;
  }
  const headers = new Headers(response.headers);
  headers.set(FETCHED, String(Date.now()));
  const copy = new Response(await response.blob(), { status: 200, statusText: response.statusText, headers });
  await (await caches.open(PAGES)).put(path, copy);
}

// --- the queue of entries logged offline -------------------------------------------------

async function postOrKeep(request, url) {
  const type = request.headers.get("Content-Type") || "";
  if (!type.startsWith("application/x-www-form-urlencoded")) { return fetch(request); }
  const form = new URLSearchParams(await request.clone().text());
  // a meal in words is kept only once confirmed: checking it needs the server
  const final = !(url.pathname === "/log/text" && form.get("confirm") !== "yes");
  // entries still wait (the network was back only a moment ago, or sign-in is needed): this one
  // goes behind them, so everything is saved in the order it was logged; the dashboard the
  // redirect loads replays the queue with its token
  if (final && (await withStore("queue", "readonly", (store) => store.count())) > 0) {
    // no Background Sync here: online it fires at once and would hand the replay to the page
    // being left, while the dashboard loading next is the one that must show the result
    await keep(url.pathname, form, false);
    return Response.redirect("/", 303);
  }
  try {
    return await fetch(request);
  } catch (error) {
    if (!final) { return Response.redirect("/log", 303); }
    await keep(url.pathname, form);
    return Response.redirect("/", 303);
  }
}

async function keep(path, form, backgroundSync = true) {
  if (!form.get("client_id")) { form.set("client_id", newID()); }
  if (!form.get("logged_at")) { form.set("logged_at", localNow()); }
  form.delete("_csrf");
  await withStore("queue", "readwrite", (store) => store.add({ path, body: form.toString(), createdAt: Date.now() }));
  if (backgroundSync && self.registration.sync) { await self.registration.sync.register(SYNC_TAG).catch(() => undefined); }
}

let running = Promise.resolve();

/** Replays the queue with `token`, one replay at a time (also across workers, by a lock). */
function replay(token) {
  const run = () => replayQueue(token);
  const next = running.then(() => (self.navigator.locks ? self.navigator.locks.request(SYNC_TAG, run) : run()));
  running = next.catch(() => undefined);
  return next;
}

/**
 * Sends the kept entries oldest first. 2xx or a redirect (303): saved, removed. 401 (not signed
 * in now), 5xx or no network: stop and keep the rest for later. Any other refusal: removed, and
 * the answer's page kept as a notice so the person learns what was not saved and why.
 */
async function replayQueue(token) {
  const items = await withStore("queue", "readonly", (store) => store.getAll());
  items.sort((a, b) => a.seq - b.seq);
  let synced = 0;
  for (const item of items) {
    let response;
    try {
      response = await fetch(item.path, {
        method: "POST", body: item.body, credentials: "same-origin", redirect: "manual",
        headers: { "Content-Type": "application/x-www-form-urlencoded", "X-CSRF-Token": token },
      });
    } catch (error) {
      return { synced, stopped: true };
    }
    const saved = response.type === "opaqueredirect" || (response.status >= 200 && response.status < 400);
    if (!saved && (response.status === 401 || response.status >= 500 || response.status === 0)) {
      if (response.body) { await response.body.cancel().catch(() => undefined); }
      return { synced, stopped: true };
    }
    if (!saved) {
      const page = (await response.text()).slice(0, 200000);
      await withStore("notices", "readwrite", (store) => store.add({ status: response.status, page, at: Date.now() }));
    }
    if (saved && response.body) { await response.body.cancel().catch(() => undefined); }
    await withStore("queue", "readwrite", (store) => store.delete(item.seq));
    if (saved) { synced += 1; }
  }
  return { synced, stopped: false };
}

// Background Sync: pages replay with their own token; with none open, the worker loads the
// dashboard for a fresh token (the answer to a GET now, not a stored one).
self.addEventListener("sync", (event) => {
  if (event.tag === SYNC_TAG) { event.waitUntil(syncFromWorker()); }
});

async function syncFromWorker() {
  const windows = await self.clients.matchAll({ type: "window" });
  if (windows.length > 0) {
    windows.forEach((client) => client.postMessage({ type: "replay-now" }));
    return;
  }
  const response = await fetch("/", { credentials: "same-origin", redirect: "manual" });
  const match = response.ok ? (await response.text()).match(/<meta name="csrf-token" content="([0-9a-f]{64})">/) : null;
  if (!match) { throw new Error("no page to replay with yet"); }
  const result = await replay(match[1]);
  if (result.stopped) { throw new Error("not saved yet"); }
}

self.addEventListener("message", (event) => {
  const data = event.data || {};
  const port = event.ports[0];
  const answer = (promise) => event.waitUntil(promise.then((value) => port && port.postMessage(value),
    (error) => port && port.postMessage({ error: String(error) })));
  if (data.type === "status") {
    answer(status(event.source ? event.source.id : "", data.loaded === true));
  } else if (data.type === "replay" && typeof data.token === "string") {
    answer(replay(data.token));
  } else if (data.type === "notices-seen" && Array.isArray(data.ids)) {
    answer(withStore("notices", "readwrite", (store) => { data.ids.forEach((id) => store.delete(id)); }));
  }
});

/**
 * A page's view: its stored copy's time (null when it came from the network), how many entries
 * wait, whether some were kept since the last page loaded (`loaded`: asked by a page just loaded),
 * and the refusals not yet shown.
 */
async function status(clientId, loaded) {
  // read and mark in one transaction: a replay running meanwhile cannot see an item come back;
  // "just kept" is told to the page loaded next (the redirect after the form), not to an older one
  let fresh = 0;
  const items = await withStore("queue", "readwrite", (store) => {
    const request = store.getAll();
    request.onsuccess = () => request.result.filter((item) => loaded && !item.shown).forEach((item) => {
      fresh += 1;
      store.put(Object.assign({}, item, { shown: true }));
    });
    return request;
  });
  const notices = await withStore("notices", "readonly", (store) => store.getAll());
  const cachedAt = servedFromCache.has(clientId) ? servedFromCache.get(clientId) : null;
  return { cachedAt, queued: items.length, kept: fresh > 0, notices };
}

// --- small helpers ------------------------------------------------------------------------

let database;

function openDatabase() {
  if (!database) {
    database = new Promise((resolve, reject) => {
      const request = indexedDB.open("wdiet-offline", 1);
      request.onupgradeneeded = () => {
        request.result.createObjectStore("queue", { keyPath: "seq", autoIncrement: true });
        request.result.createObjectStore("notices", { keyPath: "id", autoIncrement: true });
      };
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => { database = undefined; reject(request.error); };
    });
  }
  return database;
}

/** Runs `work` on one object store in a transaction; resolves with its request's result once committed. */
async function withStore(name, mode, work) {
  const db = await openDatabase();
  return new Promise((resolve, reject) => {
    const transaction = db.transaction(name, mode);
    const request = work(transaction.objectStore(name));
    transaction.oncomplete = () => resolve(request && "result" in request ? request.result : undefined);
    transaction.onerror = () => reject(transaction.error);
    transaction.onabort = () => reject(transaction.error);
  });
}

function newID() {
  if (self.crypto.randomUUID) { return self.crypto.randomUUID(); }
  const b = self.crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  return hex.slice(0, 8) + "-" + hex.slice(8, 12) + "-" + hex.slice(12, 16) + "-" + hex.slice(16, 20) + "-" + hex.slice(20);
}

/** Now as the phone's local date and time, YYYY-MM-DDTHH:MM:SS. */
function localNow() {
  const d = new Date();
  const two = (n) => String(n).padStart(2, "0");
  return d.getFullYear() + "-" + two(d.getMonth() + 1) + "-" + two(d.getDate()) + "T" + two(d.getHours()) + ":" +
    two(d.getMinutes()) + ":" + two(d.getSeconds());
}
