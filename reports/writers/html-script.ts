/**
 * The page's one script (its sha256 is in the CSP): progressive enhancement only, the page is
 * complete without it. It makes the holdings table sortable (a button in each column header,
 * aria-sort on the sorted one) and filterable (the labelled search box the page holds hidden;
 * the count of rows shown is announced through aria-live), and shows a chart point's value on
 * focus and hover. It reads everything from the DOM: the raw numbers are the cells' data-value,
 * the words (the count's sentence, "Sort by …") data attributes the writer put there in the
 * page's language. Constant text: its hash is the same for every page.
 */
export const PAGE_SCRIPT = `(function () {
  'use strict';
  var doc = document;
  var lang = doc.documentElement.lang || undefined;
  var collator = new Intl.Collator(lang, { numeric: true, sensitivity: 'base' });
  var numbers = new Intl.NumberFormat(lang);
  var table = doc.getElementById('holdings');
  if (table && table.tBodies[0]) {
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    var heads = table.tHead ? Array.prototype.slice.call(table.tHead.rows[0].cells) : [];
    var sorted = -1;
    var ascending = true;
    var keyOf = function (row, i) {
      var cell = row.cells[i];
      if (!cell) return '';
      var v = cell.getAttribute('data-value');
      return v === null ? cell.textContent : Number(v);
    };
    var sortBy = function (i) {
      ascending = sorted === i ? !ascending : true;
      sorted = i;
      var order = rows.map(function (r, at) { return { r: r, k: keyOf(r, i), at: at }; });
      order.sort(function (a, b) {
        var c;
        if (typeof a.k === 'number' && typeof b.k === 'number') c = a.k - b.k;
        else if (typeof a.k === 'number') c = -1;
        else if (typeof b.k === 'number') c = 1;
        else c = collator.compare(a.k, b.k);
        return (ascending ? c : -c) || a.at - b.at;
      });
      order.forEach(function (o) { body.appendChild(o.r); });
      heads.forEach(function (th, j) {
        if (j === i) th.setAttribute('aria-sort', ascending ? 'ascending' : 'descending');
        else th.removeAttribute('aria-sort');
      });
    };
    heads.forEach(function (th, i) {
      var button = doc.createElement('button');
      button.type = 'button';
      button.title = th.getAttribute('data-sort') || '';
      while (th.firstChild) button.appendChild(th.firstChild);
      th.appendChild(button);
      button.addEventListener('click', function () { sortBy(i); });
    });
    var filter = doc.getElementById('holdings-filter');
    var input = doc.getElementById('holdings-filter-input');
    var count = doc.getElementById('holdings-filter-count');
    if (filter && input && count) {
      filter.hidden = false;
      var texts = rows.map(function (r) { return r.textContent.toLocaleLowerCase(lang); });
      var sentence = count.getAttribute('data-template') || '';
      input.addEventListener('input', function () {
        var q = input.value.trim().toLocaleLowerCase(lang);
        var shown = 0;
        rows.forEach(function (r, i) {
          var match = q === '' || texts[i].indexOf(q) >= 0;
          r.hidden = !match;
          if (match) shown++;
        });
        count.textContent = sentence.replace('{shown}', numbers.format(shown)).replace('{total}', numbers.format(rows.length));
      });
    }
  }
  Array.prototype.forEach.call(doc.querySelectorAll('figure.chart'), function (figure) {
    var tip = figure.querySelector('.tip');
    if (!tip) return;
    var show = function (event) {
      var point = event.target.closest && event.target.closest('.chart-point');
      if (point) tip.textContent = point.getAttribute('aria-label');
    };
    figure.addEventListener('focusin', show);
    figure.addEventListener('mouseover', show);
  });
})();
`;
