// Table Companion's service worker (issue 17), served by companion/pwa/views.py at /sw.js.
// It keeps the app's static files, and the last copy of each table page this phone opened: with no
// network a table still opens, showing the state this phone last saw (table.js says so).
"use strict";
const VERSION = "{{ version }}";
const STATIC_CACHE = "static-" + VERSION; // a new deployment's files: a new worker and a new cache
const PAGES_CACHE = "tables"; // the last seen table pages outlive a deployment
const SHELL = {{ precache|safe }};
const STATIC_URL = "{{ static_url }}";
const TABLE_PAGE = /^\/t\/[^/]+\/$/;
const CATALOG = "{% url 'javascript-catalog' %}"; // table.js's sentences in the phone's language

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(STATIC_CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  const old = (name) => name.startsWith("static-") && name !== STATIC_CACHE;
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter(old).map((name) => caches.delete(name))))
      .then(() => self.clients.claim())
      .then(keepOpenTables)
  );
});

// The table pages open when the worker first takes over were loaded without it: keep them now, so
// that a table opened once opens again offline.
async function keepOpenTables() {
  const cache = await caches.open(PAGES_CACHE);
  const windows = await self.clients.matchAll({ type: "window" });
  const paths = windows.map((client) => new URL(client.url).pathname).filter((path) => TABLE_PAGE.test(path));
  await Promise.all(paths.map((path) => cache.add(path).catch(() => null)));
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith(STATIC_URL)) event.respondWith(cacheFirst(request));
  else if (request.mode === "navigate" && TABLE_PAGE.test(url.pathname)) event.respondWith(tablePage(request));
  else if (url.pathname === CATALOG) event.respondWith(lastCatalog(request));
});

// Static names carry their content's hash: a cached file is never stale.
async function cacheFirst(request) {
  const cached = await caches.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) (await caches.open(STATIC_CACHE)).put(request, response.clone());
  return response;
}

// The language's catalog as last fetched, for a table opened offline (issue 17).
async function lastCatalog(request) {
  const cache = await caches.open(PAGES_CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(CATALOG, response.clone());
    return response;
  } catch (error) {
    const copy = await cache.match(CATALOG);
    if (!copy) throw error;
    return copy;
  }
}

// The network first; its answer is kept as the table's last seen page (the page itself, without a
// step's query). Without a network, that copy, marked so that the page says what it is.
async function tablePage(request) {
  const cache = await caches.open(PAGES_CACHE);
  const path = new URL(request.url).pathname;
  try {
    const response = await fetch(request);
    if (response.ok && !new URL(request.url).search) await cache.put(path, response.clone());
    return response;
  } catch (error) {
    const copy = await cache.match(path);
    if (!copy) throw error;
    const seen = copy.headers.get("Date") || "";
    const html = (await copy.text()).replace("<body", `<body data-offline-copy="${seen}"`);
    const headers = new Headers(copy.headers);
    headers.delete("Content-Length");
    headers.delete("Content-Encoding");
    return new Response(html, { status: 200, headers });
  }
}
