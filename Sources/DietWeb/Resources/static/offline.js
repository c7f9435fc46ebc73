// Offline-first: registers the service worker and replays the offline queue (issue 16).
