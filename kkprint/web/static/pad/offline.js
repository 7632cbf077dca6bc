// Every page of the pad: the service worker keeps the pages and their files on the phone, so an
// open game goes on working (and reloads) while the table's Wi-Fi is gone.
"use strict";

if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/sw.js").catch(() => { /* not a secure context: works online only */ });
}
