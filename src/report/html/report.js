// The edgebench HTML report's renderer (src/report/html/report_page.cc inlines this file after
// the chart library). It reads the report's data (report_data.cc) from #report-data and draws
// every section present in it. Every chart container carries data-chart="SECTION/NAME"; once
// drawn, data-drawn="1" and data-series="N" (the number of series in its chart option), which
// the browser test checks. An error goes to console.error (the test fails on any console
// message) and to an error box in its section. Nothing here logs otherwise.
(function () {
  'use strict';

  var ORDER = ['environment', 'hosts', 'summary', 'rounds', 'latency', 'warmup', 'load', 'soak', 'memory',
               'placement', 'pipelines', 'mixes', 'shapes', 'accuracy', 'conformance', 'llm', 'vlm', 'roofline',
               'tradeoffs', 'tune'];
  var TITLES = {
    environment: 'Environment and runtimes',
    hosts: 'The same cases on every host',
    summary: 'Summary of every case', rounds: 'Across rounds: medians, intervals and which targets separate',
    latency: 'Latency distribution',
    warmup: 'Warmup',
    load: 'Throughput and p99 under load',
    soak: 'Soak',
    memory: 'Memory',
    placement: 'Placement',
    pipelines: 'Pipeline stages',
    mixes: 'Several workloads at once: timeline and interference',
    shapes: 'Shape sweep',
    accuracy: 'Accuracy and drift',
    conformance: 'Operator conformance: ONNX\'s node tests',
    llm: 'Language models: TTFT and TPOT',
    vlm: 'Vision-language requests: where TTFT goes',
    roofline: 'How close to the machine\'s limit (roofline)',
    tradeoffs: 'Trade-offs',
    tune: 'Tuning races'
  };
  var STATUS_COLORS = {
    ok: '#2e8540', failed: '#c0392b', crashed: '#8e1b10', timeout: '#d35400',
    unavailable: '#7f8c8d', skipped: '#95a5a6', oom: '#6c3483'
  };
  var PALETTE = ['#2a5db0', '#d35400', '#2e8540', '#8e44ad', '#c0392b', '#16a085', '#b8860b',
                 '#34495e', '#e84393', '#7f8c8d', '#0984e3', '#6ab04c'];

  var charts = [];

  // ---- DOM helpers -----------------------------------------------------------------------

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    if (attrs) {
      Object.keys(attrs).forEach(function (key) {
        if (key === 'text') node.textContent = attrs[key];
        else if (key === 'className') node.className = attrs[key];
        else node.setAttribute(key, attrs[key]);
      });
    }
    (children || []).forEach(function (child) {
      if (child === null || child === undefined) return;
      node.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
    });
    return node;
  }

  // Text for an HTML sink the chart library writes as markup (a tooltip formatter's return
  // value): every string that comes from a record passes through here, never raw.
  function esc(text) {
    return String(text).replace(/[&<>"']/g, function (c) {
      return {'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;'}[c];
    });
  }

  function isNumber(v) { return typeof v === 'number' && isFinite(v); }

  function fmt(v, digits) {
    if (!isNumber(v)) return '-';
    var d = digits === undefined ? 3 : digits;
    if (v !== 0 && Math.abs(v) < 1) return v.toPrecision(d);
    return v.toFixed(Math.max(0, d - 1 - Math.floor(Math.log10(Math.max(Math.abs(v), 1)))));
  }

  function statusBadge(status) {
    return el('span', {className: 'status status-' + status, text: status});
  }

  function table(headers, rows, options) {
    var opts = options || {};
    var head = el('tr', null, headers.map(function (h) {
      return el('th', {className: h.num ? 'num' : '', text: h.label});
    }));
    var body = el('tbody', null, rows.map(function (cells) {
      return el('tr', null, cells.map(function (cell, i) {
        var td = el('td', {className: headers[i].num ? 'num' : (headers[i].message ? 'message' : '')});
        if (cell && cell.node) {
          td.appendChild(cell.node);
          if (cell.sort !== undefined) td.setAttribute('data-sort', cell.sort);
        } else {
          td.textContent = cell === null || cell === undefined ? '' : String(cell);
        }
        return td;
      }));
    }));
    var t = el('table', {className: opts.className || ''}, [el('thead', null, [head]), body]);
    if (opts.sortable) makeSortable(t, headers);
    // A long table scrolls in its own box on screen (its header stays), so the sections after
    // it stay a scroll away; printed, it runs over as many pages as it needs.
    return el('div', {className: 'table-wrap' + (rows.length > 25 ? ' tall' : '')}, [t]);
  }

  // Clicking a header sorts by that column; again reverses. Numbers sort as numbers.
  function makeSortable(t, headers) {
    t.className += ' sortable';
    var ths = t.querySelectorAll('thead th');
    Array.prototype.forEach.call(ths, function (th, column) {
      th.addEventListener('click', function () {
        var ascending = th.getAttribute('data-sorted') !== 'asc';
        Array.prototype.forEach.call(ths, function (other) { other.removeAttribute('data-sorted'); });
        th.setAttribute('data-sorted', ascending ? 'asc' : 'desc');
        var body = t.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        var key = function (row) {
          var cell = row.cells[column];
          var text = cell.hasAttribute('data-sort') ? cell.getAttribute('data-sort') : cell.textContent;
          if (headers[column].num) {
            var n = parseFloat(text);
            return isNaN(n) ? -Infinity : n;
          }
          return text.toLowerCase();
        };
        rows.sort(function (a, b) {
          var ka = key(a), kb = key(b);
          var order = ka < kb ? -1 : ka > kb ? 1 : 0;
          return ascending ? order : -order;
        });
        rows.forEach(function (row) { body.appendChild(row); });
      });
    });
  }

  function note(text) { return el('p', {className: 'note', text: text}); }

  // ---- charts ----------------------------------------------------------------------------

  function chartBox(parent, id, height) {
    var box = el('div', {className: 'chart', 'data-chart': id});
    box.style.height = Math.round(height || 360) + 'px';
    parent.appendChild(box);
    return box;
  }

  function draw(box, option) {
    option.animation = false;
    option.color = option.color || PALETTE;
    if (!option.textStyle) option.textStyle = {fontFamily: 'system-ui, sans-serif'};
    var chart = echarts.init(box, null, {renderer: 'svg'});
    chart.setOption(option);
    charts.push(chart);
    box.setAttribute('data-series', String(option.series.length));
    box.setAttribute('data-drawn', '1');
    return chart;
  }

  function logToggle(parent, label, onChange) {
    var input = el('input', {type: 'checkbox'});
    input.addEventListener('change', function () { onChange(input.checked); });
    parent.appendChild(el('div', {className: 'controls'}, [el('label', null, [input, ' ' + label])]));
  }

  function tooltipAxis() { return {trigger: 'axis', confine: true}; }

  function legend(names) { return {type: 'scroll', top: 0, data: names}; }

  // Many curves in one chart: the first few are shown, the rest a click on the legend away.
  var SHOWN_CURVES = 6;
  function legendOfMany(names) {
    var l = legend(names);
    l.selected = {};
    names.forEach(function (name, i) { l.selected[name] = i < SHOWN_CURVES; });
    return l;
  }

  function manyCurvesNote(body, count) {
    if (count > SHOWN_CURVES) {
      body.appendChild(note('The first ' + SHOWN_CURVES + ' of ' + count +
                            ' cases are drawn; click a case in the legend to show or hide it.'));
    }
  }

  // ---- sections --------------------------------------------------------------------------

  function drawEnvironment(body, part) {
    var hosts = part.hosts;
    var runtimeNames = [];
    hosts.forEach(function (h) {
      Object.keys(h.runtimes).forEach(function (name) {
        if (runtimeNames.indexOf(name) < 0) runtimeNames.push(name);
      });
    });
    runtimeNames.sort();
    var gib = function (bytes) { return isNumber(bytes) && bytes > 0 ? fmt(bytes / 1073741824, 3) + ' GiB' : '-'; };
    var rows = [
      ['Fleet host'].concat(hosts.map(function (h) { return h.host || '-'; })),
      ['Host'].concat(hosts.map(function (h) { return h.hostname; })),
      ['Architecture'].concat(hosts.map(function (h) { return h.architecture || '-'; })),
      ['CPU emulated'].concat(hosts.map(function (h) { return h.cpu_emulation || 'no (native)'; })),
      ['CPU'].concat(hosts.map(function (h) { return h.cpu_model; })),
      ['Logical cores (usable)'].concat(hosts.map(function (h) {
        return h.logical_cores + (h.usable_cores ? ' (' + h.usable_cores + ')' : '');
      })),
      ['Memory'].concat(hosts.map(function (h) { return gib(h.memory_total_bytes); })),
      ['CPU governor, max MHz'].concat(hosts.map(function (h) { return h.cpu_governor + ', ' + h.cpu_max_freq_mhz; })),
      ['ISA features'].concat(hosts.map(function (h) { return (h.cpu_features || []).join(' '); })),
      ['OS'].concat(hosts.map(function (h) { return h.os; })),
      ['Kernel'].concat(hosts.map(function (h) { return h.kernel; })),
      ['edgebench'].concat(hosts.map(function (h) { return h.edgebench_version + ' (' + h.edgebench_commit + ')'; })),
      ['Build'].concat(hosts.map(function (h) {
        return h.compiler + ', ' + h.build_type + (h.debug_build ? ', debug' : '') +
               (h.sanitizers ? ', sanitizers' : '');
      }))
    ];
    runtimeNames.forEach(function (name) {
      rows.push(['Runtime ' + name].concat(hosts.map(function (h) { return h.runtimes[name] || '-'; })));
    });
    rows.push(['Records'].concat(hosts.map(function (h) { return h.records + ' from ' + h.stores.join(', '); })));
    var headers = [{label: ''}].concat(hosts.map(function (h, i) { return {label: 'Machine ' + (i + 1)}; }));
    body.appendChild(table(headers, rows, {className: 'side-by-side'}));
  }

  // One row per case, one column per host: p50 / p99, or the status and its reason.
  function drawHosts(body, part) {
    var rows = part.rows.map(function (r) {
      return [r.model, r.target, r.scenario].concat(r.cells.map(function (c) {
        if (c.p50_ms !== undefined) return fmt(c.p50_ms, 3) + ' / ' + fmt(c.p99_ms, 3) + (c.valid ? '' : ' INVALID');
        return c.status + (c.error ? ': ' + c.error : '');
      }));
    });
    var headers = [{label: 'Model'}, {label: 'Target'}, {label: 'Scenario'}].concat(
        part.hosts.map(function (h, i) {
          var d = (part.host_details || [])[i] || {};
          var what = [d.architecture, d.cpu_emulation ? 'emulated: ' + d.cpu_emulation : ''].filter(Boolean).join(', ');
          return {label: h + (what ? ' (' + what + ')' : '') + ': p50 / p99 ms'};
        }));
    body.appendChild(table(headers, rows, {className: 'side-by-side'}));
  }

  // A store's name in the summary: its directory (or file) name; the full path is its title.
  function shortStoreName(label) {
    var parts = label.replace(/\/results\.jsonl$/, '').replace(/\/+$/, '').split('/');
    return parts[parts.length - 1] || label;
  }

  function drawSummary(body, part) {
    var stores = {};
    part.rows.forEach(function (r) { stores[r.store] = true; });
    var shortNames = {};
    Object.keys(stores).forEach(function (label, i) {
      var name = shortStoreName(label);
      var clash = Object.keys(stores).some(function (other) {
        return other !== label && shortStoreName(other) === name;
      });
      shortNames[label] = clash ? (i + 1) + ': ' + name : name;
    });
    var headers = [
      {label: 'Store'}, {label: 'Model'}, {label: 'Variant'}, {label: 'Target'}, {label: 'Scenario'},
      {label: 'Shape'}, {label: 'Status'}, {label: 'Verdict or failure', message: true},
      {label: 'p50 ms', num: true}, {label: 'p99 ms', num: true}, {label: 'Throughput /s', num: true}
    ];
    var rows = part.rows.map(function (r) {
      var verdict = r.status !== 'ok' ? '' : r.valid ? 'valid' : 'INVALID';
      var verdictNode = el('span', {className: r.valid ? 'verdict-valid' : 'verdict-invalid', text: verdict});
      if (r.status === 'ok' && !r.valid) {
        // A word in the column; the reasons, which run to paragraphs, one click away.
        var why = el('details', {className: 'reasons'}, [
          el('summary', {text: r.reasons.length + (r.reasons.length === 1 ? ' reason' : ' reasons')}),
          el('span', {text: r.reasons.join('; ')})]);
        verdictNode = el('span', null, [verdictNode, ' ', why]);
      }
      if (r.status !== 'ok') {
        // One column for both: a case that did not measure has a failure, not a verdict. A
        // runtime's message can run to pages: its start shows, all of it on hover.
        verdict = r.failed_stage ? r.failed_stage + ': ' + r.error : r.error;
        var shown = verdict.length > 120 ? verdict.slice(0, 120) + '\u2026' : verdict;
        verdictNode = el('span', {className: 'reasons', text: shown, title: verdict});
      }
      return [{node: el('span', {title: r.store, text: shortNames[r.store]}), sort: r.store},
              r.model, r.variant, r.target, r.scenario, r.dims,
              {node: statusBadge(r.status), sort: r.status},
              {node: verdictNode, sort: verdict},
              fmt(r.p50_ms, 4), fmt(r.p99_ms, 4), fmt(r.throughput_qps, 4)];
    });
    // Skipped cases (a model with no file the target's runtime reads, a scenario the runtime
    // cannot run) are what a suite's cross product planned, not results: counted, shown on
    // request.
    var skipped = part.rows.filter(function (r) { return r.status === 'skipped'; }).length;
    body.appendChild(note(part.rows.length + ' cases from ' + Object.keys(stores).length +
                          ' store(s)' + (skipped ? ', ' + skipped + ' of them skipped' : '') +
                          '. Click a column to sort.'));
    var wrap = table(headers, rows, {sortable: true});
    var trs = wrap.querySelectorAll('tbody tr');
    part.rows.forEach(function (r, i) { if (r.status === 'skipped') trs[i].className += ' skipped-row'; });
    if (skipped) {
      wrap.className += ' hide-skipped';
      var input = el('input', {type: 'checkbox'});
      input.addEventListener('change', function () {
        wrap.className = wrap.className.replace(/ ?hide-skipped/, '') + (input.checked ? '' : ' hide-skipped');
      });
      body.appendChild(el('div', {className: 'controls'}, [
        el('label', null, [input, ' show the ' + skipped + ' skipped cases and why'])]));
    }
    body.appendChild(wrap);
  }

  // Entries grouped by model, in the order the data names them: one chart per model, since the
  // latencies of different models differ by orders of magnitude.
  function byModel(entries) {
    var groups = [];
    var index = {};
    entries.forEach(function (e) {
      if (!(e.model in index)) {
        index[e.model] = groups.length;
        groups.push({model: e.model, entries: []});
      }
      groups[index[e.model]].entries.push(e);
    });
    return groups;
  }

  function drawLatency(body, part) {
    var groups = byModel(part.cases);
    var drawn = [];
    logToggle(body, 'logarithmic latency axis', function (log) {
      drawn.forEach(function (chart) { chart.setOption({xAxis: {type: log ? 'log' : 'value', scale: true}}); });
    });
    groups.forEach(function (g) {
      var cases = g.entries;
      if (groups.length > 1) body.appendChild(el('h3', {text: g.model}));
      var option = {
        tooltip: {trigger: 'item', confine: true},
        legend: legend(['min, p25, p50, p75, max', 'p50', 'p99']),
        grid: {left: 20, right: 40, top: 40, bottom: 40, containLabel: true},
        yAxis: {type: 'category', data: cases.map(function (c) { return c.label; }), inverse: true,
                axisLabel: {width: 420, overflow: 'break', lineHeight: 15}},
        xAxis: {type: 'value', name: 'latency (ms)', nameLocation: 'middle', nameGap: 26, scale: true},
        series: [
          {name: 'min, p25, p50, p75, max', type: 'boxplot', layout: 'horizontal',
           data: cases.map(function (c) { return [c.min, c.p25, c.p50, c.p75, c.max]; })},
          {name: 'p50', type: 'scatter', symbol: 'diamond', symbolSize: 9,
           data: cases.map(function (c, i) { return [c.p50, i]; })},
          {name: 'p99', type: 'scatter', symbol: 'triangle', symbolSize: 10,
           data: cases.map(function (c, i) { return [c.p99, i]; })}
        ]
      };
      drawn.push(draw(chartBox(body, 'latency/' + g.model, 90 + 40 * cases.length), option));
    });
    body.appendChild(note('Boxes span p25 to p75 with the median line; whiskers reach the fastest and ' +
                          'slowest query. p99 is the triangle. Times from the measured phase only.'));
  }

  function drawWarmup(body, part) {
    var groups = byModel(part.curves);
    var drawn = [];
    logToggle(body, 'logarithmic latency axis', function (log) {
      drawn.forEach(function (chart) { chart.setOption({yAxis: {type: log ? 'log' : 'value', scale: true}}); });
    });
    groups.forEach(function (g) {
      if (groups.length > 1) body.appendChild(el('h3', {text: g.model}));
      var series = g.entries.map(function (c) {
        var s = {
          name: c.label, type: 'line', showSymbol: false, sampling: 'lttb',
          data: c.latency_ms.map(function (v, i) { return [i, v]; }),
          markLine: {symbol: 'none', silent: true, lineStyle: {type: 'dashed'},
                     label: {formatter: 'measured'}, data: [{xAxis: c.warmup_queries}]}
        };
        if (isNumber(c.settling_index) && c.settling_index < c.latency_ms.length) {
          s.markPoint = {symbol: 'pin', symbolSize: 36, data: [
            {name: 'settled', coord: [c.settling_index, c.latency_ms[c.settling_index]], value: 'settled'}]};
        }
        return s;
      });
      var option = {
        tooltip: tooltipAxis(),
        legend: legendOfMany(g.entries.map(function (c) { return c.label; })),
        grid: {left: 60, right: 30, top: 40 + 18 * Math.min(4, g.entries.length), bottom: 50},
        xAxis: {type: 'value', name: 'query (warmup, then measured)', nameLocation: 'middle', nameGap: 28},
        yAxis: {type: 'value', name: 'latency (ms)', scale: true},
        series: series
      };
      drawn.push(draw(chartBox(body, 'warmup/' + g.model, 380), option));
      manyCurvesNote(body, g.entries.length);
    });
    var rows = part.curves.map(function (c) {
      return [c.label, c.warmup_queries, c.total_queries,
              isNumber(c.settling_index) ? c.settling_index : 'never', fmt(c.settling_ms, 4), fmt(c.steady_p50_ms, 4)];
    });
    body.appendChild(table([{label: 'Case'}, {label: 'Warmup queries', num: true}, {label: 'Queries', num: true},
                            {label: 'Settled at query', num: true}, {label: 'Time to settle ms', num: true},
                            {label: 'Steady p50 ms', num: true}], rows));
    if (part.left_out > 0) body.appendChild(note(part.left_out + ' more single-stream cases are not drawn.'));
  }

  function drawLoad(body, part) {
    // Several curves side by side, two to a row, so that a suite's many targets stay readable.
    var grid = el('div', {className: part.groups.length > 1 ? 'chart-grid' : ''});
    body.appendChild(grid);
    part.groups.forEach(function (g, index) {
      var byRate = g.axis === 'rate';
      var cell = el('div');
      grid.appendChild(cell);
      cell.appendChild(el('h3', {text: g.model + (g.variant ? '?' + g.variant : '') + ' on ' + g.target +
                                       (byRate ? ': server, against offered rate' : ': against streams')}));
      var throughput = {
        name: 'throughput (queries/s)', type: 'line', yAxisIndex: 0, symbolSize: 8,
        data: g.points.map(function (p) { return [p.x, p.throughput_qps]; })
      };
      var p99 = {
        name: 'p99 (ms)', type: 'line', yAxisIndex: 1, symbolSize: 8, lineStyle: {type: 'dashed'},
        data: g.points.map(function (p) { return [p.x, p.p99_ms]; })
      };
      if (isNumber(g.peak_qps)) {
        throughput.markLine = {symbol: 'none', lineStyle: {color: '#c0392b'},
                               label: {formatter: 'peak ' + fmt(g.peak_qps, 4) + '/s'},
                               data: [{xAxis: g.peak_qps}]};
      }
      if (isNumber(g.p99_bound_ms)) {
        p99.markLine = {symbol: 'none', lineStyle: {color: '#b8860b', type: 'dotted'},
                        label: {position: 'insideEndTop', formatter: 'p99 bound ' + fmt(g.p99_bound_ms, 3) + ' ms'},
                        data: [{yAxis: g.p99_bound_ms}]};
      }
      draw(chartBox(cell, 'load/' + index, 320), {
        tooltip: tooltipAxis(),
        legend: legend([throughput.name, p99.name]),
        grid: {left: 70, right: 70, top: 40, bottom: 50},
        xAxis: {type: 'value', name: byRate ? 'offered rate (queries/s)' : 'streams',
                nameLocation: 'middle', nameGap: 28, scale: byRate, minInterval: byRate ? 0 : 1},
        yAxis: [{type: 'value', name: 'queries/s'}, {type: 'value', name: 'p99 ms', scale: true}],
        series: [throughput, p99]
      });
      if (g.earlier_runs) {
        cell.appendChild(note('Each point is the latest run at its load; ' + g.earlier_runs +
                              ' earlier run(s) at the same loads are in the latency chart.'));
      }
      if (byRate && g.peak_qps === undefined) {
        cell.appendChild(note('No peak search in these records.'));
      } else if (byRate && !isNumber(g.peak_qps)) {
        cell.appendChild(note('The peak search found no rate that passed.'));
      }
    });
  }

  function throttleAreas(events) {
    return {silent: true, itemStyle: {color: 'rgba(192,57,43,0.12)'},
            label: {position: 'insideTop', fontSize: 10},
            data: events.map(function (e) {
              var end = e.end_s > e.start_s ? e.end_s : e.start_s + 0.001;
              return [{name: 'throttled: ' + e.kind, xAxis: e.start_s}, {xAxis: end}];
            })};
  }

  var DEVICE_SERIES = {
    temperature_c: {name: 'temperature (°C, hottest zone)', axis: '°C'},
    frequency_mhz: {name: 'frequency (MHz, mean of cores)', axis: 'MHz'},
    power_w: {name: 'power (W, device total)', axis: 'W'}
  };

  function drawSoak(body, part) {
    part.runs.forEach(function (run, index) {
      body.appendChild(el('h3', {text: run.label}));
      var windows = run.windows;
      var device = run.device;
      var events = run.throttling || [];
      var end = 0;
      windows.forEach(function (w) { end = Math.max(end, w.end_s); });
      if (device && device.t_s.length) end = Math.max(end, device.t_s[device.t_s.length - 1]);
      var mid = function (w) { return (w.start_s + w.end_s) / 2; };
      var latencySeries = [
        {name: 'p50 (ms)', type: 'line', yAxisIndex: 0, data: windows.map(function (w) { return [mid(w), w.p50_ms]; })},
        {name: 'p99 (ms)', type: 'line', yAxisIndex: 0, data: windows.map(function (w) { return [mid(w), w.p99_ms]; })},
        {name: 'throughput (queries/s)', type: 'line', yAxisIndex: 1, lineStyle: {type: 'dashed'},
         data: windows.map(function (w) { return [mid(w), w.throughput_qps]; })}
      ];
      if (events.length) latencySeries[0].markArea = throttleAreas(events);
      draw(chartBox(body, 'soak/' + index + '-windows', 300), {
        tooltip: tooltipAxis(),
        legend: legend(latencySeries.map(function (s) { return s.name; })),
        grid: {left: 70, right: 80, top: 40, bottom: 45},
        xAxis: {type: 'value', name: 'time (s)', nameLocation: 'middle', nameGap: 26, min: 0, max: end},
        yAxis: [{type: 'value', name: 'ms', scale: true}, {type: 'value', name: 'queries/s', scale: true}],
        series: latencySeries
      });
      if (device) {
        var names = device.series;
        var yAxes = names.map(function (n, i) {
          return {type: 'value', name: DEVICE_SERIES[n].axis, scale: true, position: i === 0 ? 'left' : 'right',
                  offset: i > 1 ? 60 : 0, alignTicks: false};
        });
        var deviceSeries = names.map(function (n, i) {
          return {name: DEVICE_SERIES[n].name, type: 'line', yAxisIndex: i, showSymbol: false, connectNulls: false,
                  data: device.t_s.map(function (t, k) { return [t, device[n][k]]; })};
        });
        if (events.length) deviceSeries[0].markArea = throttleAreas(events);
        draw(chartBox(body, 'soak/' + index + '-device', 300), {
          tooltip: tooltipAxis(),
          legend: legend(deviceSeries.map(function (s) { return s.name; })),
          grid: {left: 70, right: names.length > 2 ? 130 : 80, top: 40, bottom: 45},
          xAxis: {type: 'value', name: 'time (s)', nameLocation: 'middle', nameGap: 26, min: 0, max: end},
          yAxis: yAxes,
          series: deviceSeries
        });
      } else {
        body.appendChild(note('No temperature, frequency or power was sampled beside this soak ' +
                              '(the device monitor read none).'));
      }
      if (events.length) {
        body.appendChild(table([{label: 'Throttling'}, {label: 'Channel'}, {label: 'From s', num: true},
                                {label: 'To s', num: true}, {label: 'Detail', message: true}],
                               events.map(function (e) {
                                 return [e.kind, e.channel, fmt(e.start_s, 4), fmt(e.end_s, 4), e.detail];
                               })));
      }
      if (isNumber(run.p99_drift_ratio)) {
        body.appendChild(note('p99 of the last full window / the first steady window: ' + fmt(run.p99_drift_ratio, 3)));
      }
    });
  }

  function drawMemory(body, part) {
    var series = part.runs.map(function (run) {
      return {name: run.label, type: 'line', showSymbol: false,
              data: run.t_s.map(function (t, k) { return [t, run.rss_mb[k]]; })};
    });
    if (series.length) {
      series[0].markLine = {symbol: 'none', silent: true, lineStyle: {type: 'dashed', color: '#7f8c8d'},
                            label: {formatter: 'measured'}, data: [{xAxis: 0}]};
    }
    draw(chartBox(body, 'memory/rss', 380), {
      tooltip: tooltipAxis(),
      legend: legendOfMany(series.map(function (s) { return s.name; })),
      grid: {left: 70, right: 30, top: 40 + 18 * Math.min(4, series.length), bottom: 45},
      xAxis: {type: 'value', name: 'time from the measured phase\'s start (s)', nameLocation: 'middle', nameGap: 26},
      // Left of the plot, not at time 0 (samples before the measured phase are negative).
      yAxis: {type: 'value', name: 'RSS (MiB)', scale: true, axisLine: {onZero: false}},
      series: series
    });
    manyCurvesNote(body, series.length);
    var growth = el('details', null, [el('summary', {text: 'Peak and growth per case'})]);
    growth.appendChild(table([{label: 'Case'}, {label: 'Peak MiB', num: true}, {label: 'Growth', message: true}],
                             part.runs.map(function (r) { return [r.label, fmt(r.peak_mb, 4), r.verdict]; })));
    body.appendChild(growth);
    if (part.left_out > 0) body.appendChild(note(part.left_out + ' more cases with a memory series are not drawn.'));
    if (part.map) drawMemoryMap(body, part.map);
  }

  // --memory-map: each case's resident memory at each snapshot, stacked by group; --leak-sites:
  // the sites that grew, with their rates per 1,000 queries and verdicts.
  function drawMemoryMap(body, map) {
    map.maps.forEach(function (m, k) {
      body.appendChild(el('h3', {text: 'Memory map: ' + m.label}));
      draw(chartBox(body, 'memory/map/' + k, 90 + 30 * m.moments.length), {
        tooltip: {trigger: 'axis', confine: true, axisPointer: {type: 'shadow'}}, legend: legend(map.groups),
        grid: {left: 20, right: 30, top: 40, bottom: 40, containLabel: true},
        yAxis: {type: 'category', inverse: true, data: m.moments},
        xAxis: {type: 'value', name: 'resident (MiB)', nameLocation: 'middle', nameGap: 26},
        series: map.groups.map(function (g, i) {
          return {name: g, type: 'bar', stack: 'rss', barMaxWidth: 22,
                  data: m.mb.map(function (row) { return row[i]; })};
        })
      });
      m.weights.forEach(function (w) { body.appendChild(note('Weights: ' + w)); });
    });
    if (map.leak_sites.length || map.leak_reasons.length) {
      body.appendChild(el('h3', {text: 'Leak sites'}));
      if (map.leak_sites.length) {
        body.appendChild(table([{label: 'Case'}, {label: 'Site'}, {label: 'Library'},
                                {label: 'Bytes per 1,000 queries', num: true}, {label: '95% interval'},
                                {label: 'Grown bytes', num: true}, {label: 'Verdict'}],
                               map.leak_sites.map(function (s) {
                                 return [s.label, s.function, s.library, fmt(s.per_1k, 4),
                                         '[' + fmt(s.low_per_1k, 4) + ', ' + fmt(s.high_per_1k, 4) + ']',
                                         fmt(s.grown_bytes, 4), s.leak ? 'leak' : 'no leak'];
                               }), {sortable: true}));
      }
      map.leak_reasons.forEach(function (r) { body.appendChild(note(r.label + ': no leak sites: ' + r.reason)); });
    }
  }

  function drawPlacement(body, part) {
    var targets = part.targets;
    var devices = [];
    targets.forEach(function (t) {
      Object.keys(t.nodes).forEach(function (d) { if (devices.indexOf(d) < 0) devices.push(d); });
    });
    var series = devices.map(function (d) {
      return {name: d, type: 'bar', stack: 'share', barMaxWidth: 26,
              data: targets.map(function (t) { return t.nodes[d] ? +(100 * t.nodes[d] / t.total).toFixed(2) : 0; })};
    });
    draw(chartBox(body, 'placement/share', 90 + 32 * targets.length), {
      tooltip: {trigger: 'axis', confine: true, axisPointer: {type: 'shadow'}},
      legend: legend(devices),
      grid: {left: 20, right: 30, top: 40, bottom: 40, containLabel: true},
      yAxis: {type: 'category', inverse: true, data: targets.map(function (t) { return t.label; })},
      xAxis: {type: 'value', max: 100, name: 'share of nodes (%)', nameLocation: 'middle', nameGap: 26},
      series: series
    });
    body.appendChild(table([{label: 'Model and target'}, {label: 'Counted'}, {label: 'Nodes', num: true},
                            {label: 'Left on the CPU', message: true}],
                           targets.map(function (t) {
                             var ops = Object.keys(t.cpu_op_types).map(function (op) {
                               return op + ' x' + t.cpu_op_types[op];
                             });
                             return [t.label, t.basis, t.total, t.fallback || (ops.length ? ops.join(', ') : 'none')];
                           })));
  }

  var STATUS_ORDER = ['ok', 'failed', 'crashed', 'timeout', 'oom', 'unavailable', 'skipped'];

  function drawShapes(body, part) {
    part.matrices.forEach(function (m, index) {
      body.appendChild(el('h3', {text: m.model}));
      var data = m.cells.map(function (c) {
        var text = c.status === 'ok' ? fmt(c.p50_ms, 3) + ' ms' + (c.valid ? '' : ' (invalid)') : c.status;
        return {value: [c.column, c.row, STATUS_ORDER.indexOf(c.status)], text: text,
                detail: c.status === 'ok' ? 'p50 ' + fmt(c.p50_ms, 4) + ' ms, p99 ' + fmt(c.p99_ms, 4) + ' ms'
                                          : c.reason};
      });
      var box = chartBox(body, 'shapes/' + index, 80 + 40 * m.rows.length);
      box.style.maxWidth = (260 + 200 * m.columns.length) + 'px';  // cells no wider than they need
      draw(box, {
        tooltip: {confine: true, formatter: function (p) {
          return esc(m.rows[p.data.value[1]] + ' on ' + m.columns[p.data.value[0]] + ': ' + p.data.detail);
        }},
        grid: {left: 20, right: 20, top: 30, bottom: 20, containLabel: true},
        xAxis: {type: 'category', position: 'top', data: m.columns, splitArea: {show: true}},
        yAxis: {type: 'category', inverse: true, data: m.rows, splitArea: {show: true}},
        visualMap: {type: 'piecewise', show: false, dimension: 2,
                    pieces: STATUS_ORDER.map(function (s, i) { return {value: i, color: STATUS_COLORS[s]}; })},
        series: [{name: 'p50', type: 'heatmap', data: data,
                  label: {show: true, color: '#fff', formatter: function (p) { return p.data.text; }},
                  itemStyle: {borderColor: '#fff', borderWidth: 2}}]
      });
    });
    body.appendChild(note('Cells: p50 of the shape on the target, coloured by status (green: measured).'));
  }

  function proportion(p) {
    if (!p) return '-';
    return fmt(p.value, 4) + ' [' + fmt(p.low, 3) + ', ' + fmt(p.high, 3) + '] of ' + p.trials;
  }

  function valueText(v) {
    if (v && typeof v === 'object' && 'value' in v) return fmt(v.value, 4);
    return fmt(v, 4);
  }

  function drawAccuracy(body, part) {
    if (part.rows.length) {
      body.appendChild(el('h3', {text: 'Accuracy on labelled data (95% Wilson intervals)'}));
      body.appendChild(table([{label: 'Model'}, {label: 'Variant'}, {label: 'Target'}, {label: 'Status'},
                              {label: 'Data', message: true}, {label: 'Top-1'}, {label: 'Top-5'},
                              {label: 'Inference p50 ms', num: true}],
                             part.rows.map(function (r) {
                               return [r.model, r.variant, r.target, {node: statusBadge(r.status), sort: r.status},
                                       r.data, proportion(r.top1), proportion(r.top5), fmt(r.inference_p50_ms, 4)];
                             }), {sortable: true}));
    }
    if (part.drift.length) {
      body.appendChild(el('h3', {text: 'Per-token drift of language models (llama-perplexity --kl-divergence)'}));
      body.appendChild(table([{label: 'Reference'}, {label: 'Candidate'}, {label: 'Target'}, {label: 'Status'},
                              {label: 'Positions', num: true}, {label: 'Mean KLD', num: true},
                              {label: 'Max KLD', num: true}, {label: 'Same top token', num: true},
                              {label: 'RMS Δp', num: true}],
                             part.drift.map(function (d) {
                               var status = d.status === 'ok' ? 'ok' : d.status + ': ' + d.error;
                               return [d.reference, d.candidate, d.target, status,
                                       d.positions, valueText(d.mean_kld), valueText(d.max_kld),
                                       valueText(d.same_top), valueText(d.rms_delta_p)];
                             })));
    }
  }

  function drawLlmChart(body, groups, key, id, axisName) {
    var series = [];
    groups.forEach(function (g) {
      var points = g[key];
      if (!points.length) return;
      series.push({name: g.label + ' TTFT p50', type: 'line', yAxisIndex: 0, symbolSize: 8,
                   data: points.map(function (p) { return [p.x, p.ttft_p50_ms]; })});
      series.push({name: g.label + ' TPOT p50', type: 'line', yAxisIndex: 1, symbolSize: 8, lineStyle: {type: 'dashed'},
                   data: points.map(function (p) { return [p.x, p.tpot_p50_ms]; })});
    });
    if (!series.length) return;
    body.appendChild(el('h3', {text: 'Against ' + axisName}));
    draw(chartBox(body, id, 340), {
      tooltip: tooltipAxis(), legend: legend(series.map(function (s) { return s.name; })),
      grid: {left: 70, right: 70, top: 40 + 18 * Math.min(4, series.length / 2), bottom: 45},
      xAxis: {type: 'value', name: axisName, nameLocation: 'middle', nameGap: 26, scale: true},
      yAxis: [{type: 'value', name: 'TTFT ms', scale: true}, {type: 'value', name: 'TPOT ms', scale: true}],
      series: series
    });
  }

  function drawLlm(body, part) {  // TTFT and TPOT against the prompt length and the concurrency
    drawLlmChart(body, part.groups, 'by_prompt', 'llm/prompt', 'prompt length (tokens)');
    drawLlmChart(body, part.groups, 'by_concurrency', 'llm/concurrency', 'concurrent requests');
  }

  // The trade-off, tuning and roofline sections are drawn by report_decisions.js, the pipeline and
  // vision-language ones by report_stages.js, the mixes by report_mixes.js (all inlined before this
  // file), with the helpers above.
  var helpers = {
    el: el, esc: esc, fmt: fmt, note: note, isNumber: isNumber, legend: legend, draw: draw, chartBox: chartBox, table: table
  };
  var decisions = window.edgebenchDecisionSections(helpers);
  var stages = window.edgebenchStageSections(helpers);
  var mixes = window.edgebenchMixSection(helpers);
  var conformance = window.edgebenchConformanceSection(helpers);

  var RENDERERS = {
    environment: drawEnvironment, hosts: drawHosts, summary: drawSummary, latency: drawLatency, warmup: drawWarmup,
    load: drawLoad, soak: drawSoak, memory: drawMemory, placement: drawPlacement, shapes: drawShapes,
    pipelines: stages.pipelines, mixes: mixes, accuracy: drawAccuracy, conformance: conformance, llm: drawLlm, vlm: stages.vlm,
    roofline: decisions.roofline, tradeoffs: decisions.tradeoffs, tune: decisions.tune, rounds: decisions.rounds
  };

  // ---- the page --------------------------------------------------------------------------

  function main() {
    var data = JSON.parse(document.getElementById('report-data').textContent);
    var sections = data.sections || {};
    var main = document.getElementById('report');
    var toc = document.getElementById('toc');
    var library = document.getElementById('chart-library');
    document.getElementById('generated').textContent =
        data.records + ' records from ' + data.stores.map(function (s) { return s.label; }).join(', ') +
        '; generated ' + data.generated_at + ' by edgebench ' + data.edgebench_version + ', drawn with ' +
        library.getAttribute('data-name');
    if (data.warnings && data.warnings.length) {
      main.appendChild(el('div', {className: 'warnings'}, [
        el('strong', {text: 'Read with warnings:'}),
        el('ul', null, data.warnings.map(function (w) { return el('li', {text: w}); }))]));
    }
    ORDER.forEach(function (id) {
      if (!sections[id]) return;
      var body = el('section', {className: 'report-section', id: id}, [el('h2', {text: TITLES[id]})]);
      main.appendChild(body);
      toc.appendChild(el('a', {href: '#' + id, text: TITLES[id]}));
      try {
        RENDERERS[id](body, sections[id]);
      } catch (e) {
        console.error('edgebench report: the ' + id + ' section failed to draw: ' + (e && e.stack ? e.stack : e));
        body.appendChild(el('p', {className: 'error-box', text: 'This section could not be drawn: ' + e}));
      }
    });
    var resize = function () { charts.forEach(function (c) { c.resize(); }); };
    window.addEventListener('resize', resize);
    var print = window.matchMedia ? window.matchMedia('print') : null;
    if (print && print.addEventListener) print.addEventListener('change', resize);
    window.addEventListener('beforeprint', function () {
      // A printout shows what a reader would have to click open.
      Array.prototype.forEach.call(main.querySelectorAll('details'), function (d) { d.open = true; });
      charts.forEach(function (c) { c.resize(); });
    });
    document.body.setAttribute('data-report-drawn', '1');
  }

  window.edgebenchReport = {drawTradeoffs: decisions.drawTradeoffs};
  main();
})();
