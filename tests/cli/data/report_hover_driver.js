// The browser test's driver (tests/cli/report_browser_test.cc inserts it at the top of a report
// whose records hold hostile strings, and adds its hash to the page's policy). It watches every
// element the page creates and reports, on the console, any that came from a record's text as
// markup (the marker element, an image, a frame, or any on* attribute); once the report is
// drawn, it shows the tooltip of every data item of every chart and highlights it, and writes
// how many it hovered and in how many the hostile text was shown as text into <body>.
(function () {
  'use strict';
  var MARKER = '<b class=hostile-marker>';
  function inspect(node) {
    if (node.nodeType !== 1) return;
    var bad = node.classList.contains('hostile-marker') || /^(IMG|IFRAME|OBJECT|EMBED|FORM|BASE)$/.test(node.tagName) ||
              (node.tagName === 'SCRIPT' && !node.id);
    for (var i = 0; i < node.attributes.length; ++i) {
      if (/^on/i.test(node.attributes[i].name)) bad = true;
    }
    if (bad) console.error('hostile text became markup: ' + node.outerHTML.slice(0, 300));
    for (var child = node.firstElementChild; child; child = child.nextElementSibling) inspect(child);
  }
  new MutationObserver(function (mutations) {
    mutations.forEach(function (m) { Array.prototype.forEach.call(m.addedNodes, inspect); });
  }).observe(document.documentElement, {childList: true, subtree: true});

  function hoverEverything() {
    var hovered = 0, shown = 0;
    Array.prototype.forEach.call(document.querySelectorAll('div.chart'), function (box) {
      var chart = window.echarts.getInstanceByDom(box);
      if (!chart) return;
      (chart.getOption().series || []).forEach(function (series, s) {
        var n = (series.data || []).length;
        var step = Math.max(1, Math.floor(n / 200));  // long curves: 200 points spread over them
        for (var i = 0; i < n; i += step) {
          chart.dispatchAction({type: 'highlight', seriesIndex: s, dataIndex: i});
          chart.dispatchAction({type: 'showTip', seriesIndex: s, dataIndex: i});
          ++hovered;
          // The tooltip: the chart library's absolutely placed box beside the drawing.
          var tips = Array.prototype.filter.call(box.querySelectorAll('div'), function (d) {
            return d.style.position === 'absolute' && !d.querySelector('svg');
          });
          if (tips.some(function (t) { return t.textContent.indexOf(MARKER) >= 0; })) ++shown;
          chart.dispatchAction({type: 'downplay', seriesIndex: s, dataIndex: i});
        }
      });
    });
    document.body.setAttribute('data-hovered', String(hovered));
    document.body.setAttribute('data-hostile-text-shown', String(shown));
  }
  document.addEventListener('DOMContentLoaded', function () {
    if (document.body.getAttribute('data-report-drawn') !== '1') {
      console.error('the report was not drawn');
      return;
    }
    hoverEverything();
  });
})();
