/**
 * report.html's only script, inline and allowed by its hash: copy buttons, expand and collapse,
 * open every clause for printing, open the clause a link points at. The page works without it.
 */
export const SCRIPT = `
(function () {
  'use strict';
  function label(button, text) {
    button.textContent = text;
    setTimeout(function () { button.textContent = 'Copy'; }, 2000);
  }
  function fallbackCopy(el) {
    try {
      var range = document.createRange();
      range.selectNodeContents(el);
      var sel = window.getSelection();
      sel.removeAllRanges();
      sel.addRange(range);
      return document.execCommand('copy');
    } catch (e) { return false; }
  }
  document.querySelectorAll('button[data-copy]').forEach(function (button) {
    button.hidden = false;
    button.addEventListener('click', function (event) {
      event.preventDefault();
      var el = document.getElementById(button.getAttribute('data-copy'));
      if (!el) return;
      var text = el.textContent || '';
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(text).then(function () { label(button, 'Copied'); },
          function () { label(button, fallbackCopy(el) ? 'Copied' : 'Select and copy'); });
      } else {
        label(button, fallbackCopy(el) ? 'Copied' : 'Select and copy');
      }
    });
  });
  var tools = document.getElementById('tools');
  if (tools) tools.hidden = false;
  function setAll(selector, open) {
    document.querySelectorAll(selector).forEach(function (d) { d.open = open; });
  }
  var expand = document.getElementById('expand-problems');
  if (expand) expand.addEventListener('click', function () { setAll('details.clause.fail, details.clause.error, details.clause.warn', true); });
  var all = document.getElementById('expand-all');
  if (all) all.addEventListener('click', function () { setAll('details.clause', true); });
  var none = document.getElementById('collapse-all');
  if (none) none.addEventListener('click', function () { setAll('details.clause', false); });
  var reopened = [];
  window.addEventListener('beforeprint', function () {
    reopened = Array.prototype.slice.call(document.querySelectorAll('details:not([open])'));
    reopened.forEach(function (d) { d.open = true; });
  });
  window.addEventListener('afterprint', function () {
    reopened.forEach(function (d) { d.open = false; });
    reopened = [];
  });
  function openFromHash() {
    var id = decodeURIComponent(location.hash.slice(1));
    var el = id ? document.getElementById(id) : null;
    if (el && el.tagName === 'DETAILS') el.open = true;
  }
  window.addEventListener('hashchange', openFromHash);
  openFromHash();
})();
`;
