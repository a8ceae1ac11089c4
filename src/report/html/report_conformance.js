// The conformance section of an edgebench report (report_conformance.cc gives its data): totals
// per target, then the operator x target matrix, filterable by operator, family or state, each
// operator opening onto its ONNX test cases and the runtime's messages.
window.edgebenchConformanceSection = function (h) {
  'use strict';
  var el = h.el;

  function passed(text) { return /^pass/.test(text); }
  function headers(labels, numeric) {
    return labels.map(function (label, i) { return {label: label, num: i >= numeric}; });
  }

  return function drawConformance(body, part) {
    var states = ['pass', 'wrong', 'refused', 'error', 'crashed', 'timeout', 'untestable'];
    body.appendChild(h.note('ONNX\'s own node test cases (one operator each, with expected outputs) on each ' +
                            'target: pass, wrong (outside ONNX\'s tolerance), refused at load, error at run, ' +
                            'crashed, timeout, untestable (values edgebench cannot pass). "(cpu)": the ' +
                            'accelerator left the node to the CPU.'));
    body.appendChild(h.table(headers(['target', 'runtime', 'onnx'].concat(states).concat(['pass on cpu']), 3),
      part.columns.map(function (c) {
        return [c.target, c.runtime + ' ' + c.runtime_version, c.onnx_version].concat(states.map(function (s) {
          return c.states[s] || 0;
        })).concat([c.fell_back]);
      })));
    var filter = el('input', {type: 'search', placeholder: 'operator or family', className: 'conformance-filter'});
    var failing = el('input', {type: 'checkbox'});
    failing.checked = true;
    body.appendChild(el('div', {className: 'controls'}, [
      filter, ' ', el('label', null, [failing, ' only operators some target did not pass'])]));
    var holder = el('div');
    body.appendChild(holder);
    function redraw() {
      var q = filter.value.trim().toLowerCase();
      var shown = part.operators.filter(function (o) {
        if (q && o.op.toLowerCase().indexOf(q) < 0 && o.family.toLowerCase().indexOf(q) < 0) return false;
        if (failing.checked) {
          return o.cells.some(function (t) { return !passed(t) && t !== 'untestable' && t !== '-'; });
        }
        return true;
      });
      holder.textContent = '';
      holder.appendChild(h.note(shown.length + ' of ' + part.operators.length + ' operators.'));
      var rows = shown.map(function (o) {
        var cases = el('details', null, [el('summary', {text: o.op}),
          h.table(headers(['case'].concat(part.columns.map(function (c) { return c.target; })), 99),
            o.cases.map(function (c) {
              return [c.name].concat(c.states.map(function (s, i) {
                return c.details[i] ? s + ': ' + c.details[i] : s;
              }));
            }))]);
        return [{node: cases, sort: o.op}, o.family].concat(o.cells);
      });
      holder.appendChild(h.table(headers(['operator', 'family'].concat(part.columns.map(function (c) { return c.label; })),
                                         99), rows, {sortable: true}));
    }
    filter.addEventListener('input', redraw);
    failing.addEventListener('change', redraw);
    redraw();
  };
};
