// The import form with JavaScript: the file goes up in pieces (the server appends each to a
// temporary file, so neither side holds it whole), then the page follows the import's
// progress until its summary. Without JavaScript the form posts the file whole (up to 32 MB).
// Binds on load and again after live.js swaps <main> (`wdiet:content`).
(function () {
  "use strict";

  function post(url, fields, file) {
    var body = new FormData();
    Object.keys(fields).forEach(function (name) { body.append(name, fields[name]); });
    if (file) body.append("chunk", file, "chunk");
    return fetch(url, { method: "POST", body: body, credentials: "same-origin" }).then(function (response) {
      return response.json().then(function (json) {
        if (!response.ok && response.status !== 409) throw new Error(json.error || String(response.status));
        return json;
      });
    });
  }

  function show(form, percent, label, lines) {
    var box = form.querySelector("[data-import-progress]");
    box.hidden = false;
    box.querySelector("progress").value = percent;
    box.querySelector("[data-import-label]").textContent = label;
    var list = box.querySelector("[data-import-lines]");
    list.textContent = "";
    (lines || []).forEach(function (line) {
      var item = document.createElement("li");
      item.textContent = line;
      list.appendChild(item);
    });
  }

  function follow(form, url) {
    return fetch(url, { credentials: "same-origin" }).then(function (response) { return response.json(); }).then(function (job) {
      show(form, job.percent, job.label, job.lines);
      if (job.state === "done" || job.state === "failed") return job;
      return new Promise(function (resolve) { setTimeout(resolve, 400); }).then(function () { return follow(form, url); });
    });
  }

  function upload(form, file) {
    var csrf = form.querySelector("[name=_csrf]").value;
    var unit = form.querySelector("[name=weight_unit]").value;
    var size = Number(form.dataset.chunk) || 4194304;
    return post("/import/jobs", { _csrf: csrf, size: file.size, name: file.name, weight_unit: unit }).then(function (job) {
      var offset = 0;
      function next() {
        show(form, Math.floor(offset * 100 / file.size), "", []);
        if (offset >= file.size) return post("/import/jobs/" + job.id + "/start", { _csrf: csrf });
        return post("/import/jobs/" + job.id + "/chunk", { _csrf: csrf, offset: offset }, file.slice(offset, offset + size))
          .then(function (answer) { offset = answer.received; return next(); });
      }
      return next().then(function () { return follow(form, job.status); });
    });
  }

  function bind() {
    var form = document.querySelector("form[data-import]");
    if (!form || form.dataset.bound) return;
    form.dataset.bound = "1";
    form.addEventListener("submit", function (event) {
      var input = form.querySelector("[name=file]");
      if (!input.files || !input.files.length || !window.fetch || !window.FormData) return;
      event.preventDefault();
      var button = form.querySelector("button[type=submit]");
      button.disabled = true;
      upload(form, input.files[0]).catch(function () {
        // a network error or a refused piece: the plain form still works
        button.disabled = false;
        form.submit();
      }).then(function () { button.disabled = false; });
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", bind); else bind();
  document.addEventListener("wdiet:content", bind);
})();
