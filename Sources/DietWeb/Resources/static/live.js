// Live updates (issue 16): when the store changes — in another tab, through the CLI or a
// sync — the server sends `changed` on /events; this page then fetches itself again and puts
// the new content of <main id="main"> in place, without a reload. It waits while the user is
// busy with the page (a focused field, edited values, an open dialog, selected text), keeps the
// scroll position and focus, and tells the other scripts with `wdiet:content` (docs/architecture.md, "The web app").
(function () {
  'use strict';
  if (!window.EventSource || !window.fetch || !window.DOMParser) return;

  // Pages where a fresh copy makes sense; forms in the middle of a flow are left alone.
  var LIVE = /^\/(meals|progress|weight|briefing|foods|settings|explain)?\/?$/;
  var POSTED = 'wdiet-live-posted';

  var main = document.getElementById('main');
  if (!main || !LIVE.test(location.pathname) || shownAfterPost()) return;

  var source = null;
  var wanted = false;      // a change arrived that is not on the page yet
  var fetching = false;
  var again = false;
  var retryDelay = 15000;
  var lastHTML = null;
  var interacted = false;  // the user has pressed a key or touched the page

  // The answer to a form that was sent without a redirect (a form with its errors) is not
  // what a GET of the same address shows: such a page is not refreshed.
  function shownAfterPost() {
    var posted = null;
    try {
      posted = JSON.parse(sessionStorage.getItem(POSTED) || 'null');
      sessionStorage.removeItem(POSTED);
    } catch (e) { return false; }
    if (!posted || Date.now() - posted.at > 60000 || posted.path !== location.pathname) return false;
    var nav = performance.getEntriesByType && performance.getEntriesByType('navigation')[0];
    return !nav || (nav.redirectCount === 0 && nav.type === 'navigate');
  }

  document.addEventListener('submit', function (event) {
    var form = event.target;
    if (!form || (form.method || '').toLowerCase() !== 'post') return;
    try {
      var path = new URL(form.action, location.href).pathname;
      sessionStorage.setItem(POSTED, JSON.stringify({ path: path, at: Date.now() }));
    } catch (e) { /* storage refused: nothing to remember */ }
  }, true);

  function edited(form) {
    for (var i = 0; i < form.elements.length; i++) {
      var field = form.elements[i];
      var type = (field.type || '').toLowerCase();
      if (type === 'hidden' || type === 'submit' || type === 'button' || type === 'file') continue;
      if (type === 'checkbox' || type === 'radio') {
        if (field.checked !== field.defaultChecked) return true;
      } else if (field.tagName === 'SELECT') {
        for (var j = 0; j < field.options.length; j++) {
          if (field.options[j].selected !== field.options[j].defaultSelected) return true;
        }
      } else if ('defaultValue' in field && field.value !== field.defaultValue) {
        return true;
      }
    }
    return false;
  }

  // Whether replacing the content now would take something from the user. A field focused by
  // the page itself (autofocus) before the user did anything does not count: the new copy of
  // the field gets the focus back.
  function busy() {
    var active = document.activeElement;
    var field = active && active !== main && (/^(INPUT|TEXTAREA|SELECT)$/.test(active.tagName) || active.isContentEditable);
    if (field && interacted) return true;
    // the app's dialogs are shown by the class is-open (their hidden attribute stays)
    if (document.querySelector('dialog[open], [data-dialog-panel].is-open, [aria-modal="true"]:not([hidden]):not([data-dialog-panel])')) return true;
    var selection = window.getSelection && window.getSelection();
    if (selection && !selection.isCollapsed && main.contains(selection.anchorNode)) return true;
    var forms = main.querySelectorAll('form');
    for (var i = 0; i < forms.length; i++) if (edited(forms[i])) return true;
    return false;
  }

  function focusables(root) {
    return Array.prototype.slice.call(root.querySelectorAll('a[href], button, input, select, textarea, summary, [tabindex]'));
  }

  // What names a focusable element across two copies of the page.
  function identity(element) {
    var row = element.closest('[id]');
    return [row && main.contains(row) ? row.id : '', element.tagName, element.getAttribute('href') || '',
      element.getAttribute('name') || '', element.textContent.trim()].join('|');
  }

  // The element of the new content that stands where the focused one stood: the same one if
  // it is still there, else the one at its place.
  function refocus(name, index) {
    var all = focusables(main);
    var same = all.filter(function (element) { return identity(element) === name; })[0];
    var target = same || all[index];
    if (target) target.focus({ preventScroll: true });
  }

  function swap(doc) {
    var fresh = doc.getElementById('main');
    if (!fresh) return;
    var html = fresh.innerHTML;
    if (html === lastHTML) return;
    lastHTML = html;
    var x = window.scrollX, y = window.scrollY;
    var active = document.activeElement;
    var focused = active && active !== main && main.contains(active);
    var focusName = focused ? identity(active) : null;
    var focusIndex = focused ? focusables(main).indexOf(active) : -1;
    var wasOpen = Array.prototype.map.call(main.querySelectorAll('details'), function (d) { return d.open; });
    var nodes = Array.prototype.map.call(fresh.childNodes, function (node) { return document.importNode(node, true); });
    main.replaceChildren.apply(main, nodes);
    var details = main.querySelectorAll('details');
    if (details.length === wasOpen.length) {
      for (var i = 0; i < details.length; i++) details[i].open = wasOpen[i];
    }
    if (doc.title) document.title = doc.title;
    window.scrollTo(x, y);
    if (focused) refocus(focusName, focusIndex);
    document.dispatchEvent(new CustomEvent('wdiet:content'));
  }

  // Applies the change when the user is free and the page visible; else later.
  function refresh() {
    wanted = true;
    if (document.hidden || busy()) return;
    if (fetching) { again = true; return; }
    fetching = true;
    wanted = false;
    fetch(location.href, { credentials: 'same-origin', cache: 'no-store', headers: { Accept: 'text/html' } })
      .then(function (response) {
        // not signed in now (401), gone, or sent elsewhere: leave the page as it is
        if (!response.ok || response.redirected) return null;
        return response.text();
      })
      .then(function (text) {
        if (text === null) return;
        var doc = new DOMParser().parseFromString(text, 'text/html');
        if (busy()) { wanted = true; return; }
        swap(doc);
      })
      .catch(function () { /* offline or refused: the next change tries again */ })
      .then(function () {
        fetching = false;
        if (again) { again = false; refresh(); }
      });
  }

  function whenFree() {
    if (wanted) refresh();
  }

  var version = null;      // the store's version this page last heard of
  var retryTimer = null;

  // The stream of changes. A hidden page holds none (a browser opens only six connections to
  // a server over HTTP/1.1, and a phone's battery is better without): back in view it asks
  // with the version it last heard, and the server says `changed` at once if the store moved.
  function connect() {
    if (source) return;
    clearTimeout(retryTimer);
    source = new EventSource('/events' + (version ? '?since=' + encodeURIComponent(version) : ''));
    var dropped = false;
    source.addEventListener('ready', function (event) {
      version = event.data || version;
      if (document.hidden) disconnect();
    });
    source.addEventListener('changed', function (event) {
      version = event.data || version;
      refresh();
    });
    source.onopen = function () {
      retryDelay = 15000;
      document.documentElement.setAttribute('data-live', 'on');
      // the server may have restarted: what happened meanwhile was not announced
      if (dropped) refresh();
    };
    source.onerror = function () {
      dropped = true;
      document.documentElement.setAttribute('data-live', 'off');
      if (source.readyState !== EventSource.CLOSED) return; // the browser reconnects itself
      // refused (too many pages, not signed in): try again later, less often each time
      source = null;
      retryTimer = setTimeout(connect, retryDelay);
      retryDelay = Math.min(retryDelay * 2, 300000);
    };
  }

  function disconnect() {
    clearTimeout(retryTimer);
    if (source) source.close();
    source = null;
    document.documentElement.setAttribute('data-live', 'off');
  }

  ['keydown', 'pointerdown', 'touchstart'].forEach(function (type) {
    document.addEventListener(type, function () { interacted = true; }, { capture: true, passive: true });
  });
  document.addEventListener('focusout', function () { setTimeout(whenFree, 0); });
  document.addEventListener('selectionchange', function () { if (wanted) setTimeout(whenFree, 300); });
  document.addEventListener('visibilitychange', function () {
    if (document.hidden) { disconnect(); return; }
    connect();
    whenFree();
  });
  document.addEventListener('input', function () { setTimeout(whenFree, 0); });
  document.addEventListener('close', whenFree, true); // a dialog closed
  setInterval(whenFree, 2000);
  window.addEventListener('pagehide', disconnect);
  window.addEventListener('pageshow', function (event) {
    if (event.persisted) connect();
  });
  connect();
})();
