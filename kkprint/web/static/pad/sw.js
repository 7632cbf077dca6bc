// The score pad's service worker. Network first, always (a phone on the table's Wi-Fi should see
// the game as it is now); what came last is kept, and answered when the pad cannot be reached —
// after a few seconds of silence, or at once when the connection is refused. Changes (POST, PUT…)
// and the live event stream are never kept: the page queues its own edits until the pad is back.
"use strict";

const CACHE = "kkprint-pad-1";
const FILES = ["/static/kkprint.css", "/static/pad/pad.css", "/static/pad/pad.js", "/static/pad/index.js",
  "/static/pad/offline.js", "/static/pad/icon.svg", "/manifest.webmanifest"];
const PATIENCE = 4000;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((name) => name !== CACHE).map((name) => caches.delete(name))))
    .then(() => self.clients.claim()));
});

function kept(request) {
  return caches.match(request).then((found) => found || caches.match(request, {ignoreSearch: true}));
}

async function networkFirst(request) {
  const cache = await caches.open(CACHE);
  const late = new Promise((resolve) => setTimeout(resolve, PATIENCE, null));
  const fresh = fetch(request).then((response) => {
    if (response.ok) cache.put(request, response.clone());
    return response;
  });
  try {
    const answer = await Promise.race([fresh, late]);
    if (answer) return answer;
  } catch (err) { /* the pad is not there: fall back to what was kept */ }
  const old = await kept(request);
  return old || fresh;
}

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.endsWith("/events") || url.pathname.endsWith(".pdf") || url.pathname.endsWith(".yaml")) return;
  event.respondWith(networkFirst(event.request));
});
