// The edgebench HTML report's trade-off, tuning and roofline sections (report_page.cc inlines
// this file before report.js, which calls edgebenchDecisionSections with its DOM and chart
// helpers and draws the three sections with what it returns). The same rules as report.js: every chart
// container carries data-chart, data-drawn and data-series; nothing logs.
window.edgebenchDecisionSections = function (h) {
  'use strict';
  var el = h.el, esc = h.esc, fmt = h.fmt, note = h.note, isNumber = h.isNumber, legend = h.legend, draw = h.draw,
      chartBox = h.chartBox, table = h.table;

  function drawTradeoffs(box, data) {
    var points = data.points || [];
    var front = points.filter(function (p) { return p.on_front; })
                      .sort(function (a, b) { return a.x - b.x; });
    var winner = points.filter(function (p) { return p.winner; })[0];
    var scatter = {name: 'configurations', type: 'scatter', symbolSize: 10,
                   data: points.map(function (p) {
                     // A configuration that misses a constraint is drawn grey, out of the race.
                     var item = {name: p.label, value: [p.x, p.y]};
                     if (p.eligible === false) item.itemStyle = {color: '#b0b0b0'};
                     return item;
                   }),
                   label: {show: points.length <= 30, position: 'right', fontSize: 10,
                           formatter: function (p) { return p.name; }}};
    if (winner) {
      scatter.markPoint = {symbol: 'pin', symbolSize: 44, itemStyle: {color: '#c0392b'},
                           data: [{name: 'winner', coord: [winner.x, winner.y], value: 'winner'}]};
    }
    return draw(box, {
      tooltip: {trigger: 'item', confine: true, formatter: function (p) {
        return esc(p.name + ': ' + fmt(p.value[0], 4) + ', ' + fmt(p.value[1], 4));
      }},
      legend: legend(['configurations', 'Pareto front']),
      grid: {left: 70, right: 120, top: 40, bottom: 50},
      xAxis: {type: 'value', name: data.x_label, nameLocation: 'middle', nameGap: 28, scale: true},
      yAxis: {type: 'value', name: data.y_label, scale: true},
      series: [scatter, {name: 'Pareto front', type: 'line', step: false, symbol: 'none',
                         data: front.map(function (p) { return [p.x, p.y]; })}]
    });
  }

  // One scatter per model: `edgebench recommend`'s answer for it (the same objectives and
  // constraints give the same winner on the command line).
  function drawTradeoffsSection(body, part) {
    (part.charts || []).forEach(function (chart) {
      body.appendChild(el('h3', {text: chart.model + ' (' + chart.scenario + ')'}));
      drawTradeoffs(chartBox(body, 'tradeoffs/' + chart.model, 420), chart);
      var lines = [];
      if (chart.constraints && chart.constraints.length) {
        lines.push('Constraints: ' + chart.constraints.join(', ') + ' (grey points miss one).');
      }
      if (chart.winner) lines.push('Winner: ' + chart.winner + '.');
      if (chart.runner_up) lines.push('Runner-up: ' + chart.runner_up + ': ' + chart.runner_up_reason + '.');
      if (chart.no_winner_reason) lines.push('No winner: ' + chart.no_winner_reason + '.');
      lines.forEach(function (line) { body.appendChild(note(line)); });
      if (chart.rule) body.appendChild(note('Rule: ' + chart.rule));
      if (chart.notes && chart.notes.length) {
        body.appendChild(el('ul', null, chart.notes.map(function (n) { return el('li', {text: n}); })));
      }
    });
    if (part.notes && part.notes.length) {
      body.appendChild(note('Models without a scatter:'));
      body.appendChild(el('ul', null, part.notes.map(function (n) { return el('li', {text: n}); })));
    }
  }

  // `edgebench tune`: each race as the command answered it, and a chart of every round's
  // intervals per configuration (whiskers from the low to the high bound, the estimate at the
  // flat box), so a reader sees which configuration went out when and against what.
  function drawRace(body, race) {
    var unit = race.objective_unit;
    var objective = race.settings.objective;
    body.appendChild(el('h3', {text: race.model + ' (' + race.scenario + '): ' + objective +
                                     ', race ' + race.race}));
    body.appendChild(note('Space: ' + race.space + (race.settings.constraints.length
        ? '; constraints: ' + race.settings.constraints.join(', ') : '') + '; ' +
        fmt(race.settings.confidence * 100, 3) + '% confidence that the best is kept (each interval at ' +
        fmt(race.interval_confidence * 100, 5) + '%).'));
    if (!race.complete) {
      body.appendChild(note('The records end before the race does (interrupted): `edgebench tune ... --resume` continues it.'));
    }
    body.appendChild(note('Outcome: ' + race.outcome + ': ' + race.outcome_text + '.'));
    var entrants = race.entrants;
    if (race.winner !== null) {
      var w = entrants[race.winner];
      body.appendChild(note('Winner: ' + w.label + ', ' + objective + ' ' + fmt(w.objective.estimate, 4) + ' ' + unit +
                            ' from ' + w.queries + ' queries.'));
      (race.winner_caveats || []).forEach(function (c) { body.appendChild(note('Caveat: ' + c)); });
    }
    if (race.runner_up !== null) {
      body.appendChild(note('Runner-up: ' + entrants[race.runner_up].label + ', ' + fmt(race.margin * 100, 3) +
                            '% worse' + (race.runner_up_round !== null
                                ? ' than the winner in round ' + race.runner_up_round + ', when it was dropped' : '') +
                            (race.separated ? ' (intervals separated).' : ' (intervals overlap: tied).')));
    }
    if (race.exhaustive_case_s > 0 && !race.settings.exhaustive) {
      body.appendChild(note('Time: ' + fmt(race.spent_case_s, 4) + ' s of cases (' + fmt(race.spent_measured_s, 4) +
                            ' s measuring) against about ' + fmt(race.exhaustive_case_s, 4) + ' s (' +
                            fmt(race.exhaustive_measured_s, 4) + ' s) for the exhaustive sweep at ' +
                            race.final_queries + ' queries each.'));
    }
    var labels = entrants.map(function (e) { return e.label; });
    var series = race.rounds.map(function (round) {
      var data = labels.map(function () { return '-'; });
      round.entrants.forEach(function (e) {
        var o = e.objective;
        if (!isNumber(o.estimate)) return;
        var low = isNumber(o.low) ? o.low : o.estimate, high = isNumber(o.high) ? o.high : o.estimate;
        data[e.entrant] = [low, o.estimate, o.estimate, o.estimate, high];
      });
      return {name: 'round ' + round.round + ' (' + round.queries_each + ' queries)', type: 'boxplot', data: data,
              boxWidth: [2, 14]};
    });
    // Far-off configurations (an unbounded tail) would squeeze the close ones into a corner: a
    // logarithmic axis when the values span more than a factor of 8.
    var lowest = Infinity, highest = 0;
    series.forEach(function (s) {
      s.data.forEach(function (d) {
        if (d === '-') return;
        if (d[0] > 0) lowest = Math.min(lowest, d[0]);
        highest = Math.max(highest, d[4]);
      });
    });
    var logAxis = lowest > 0 && highest / lowest > 8;
    var longest = labels.reduce(function (m, l) { return Math.max(m, l.length); }, 0);
    var box = chartBox(body, 'tune/' + race.race, Math.max(260, 46 * labels.length + 80));
    draw(box, {
      tooltip: {trigger: 'item', confine: true, formatter: function (p) {
        var v = p.data || [];
        return esc(labels[p.dataIndex] + ', ' + p.seriesName + ': ' + fmt(v[2], 4) + ' ' + unit +
                   ' [' + fmt(v[0], 4) + ', ' + fmt(v[4], 4) + ']');
      }},
      legend: legend(series.map(function (s) { return s.name; })),
      grid: {left: Math.min(420, 20 + 7 * longest), right: 40, top: 40, bottom: 50},
      xAxis: {type: logAxis ? 'log' : 'value', name: objective + ' (' + unit + ')' + (logAxis ? ', log scale' : ''),
              nameLocation: 'middle', nameGap: 28, scale: true},
      yAxis: {type: 'category', data: labels, inverse: true},
      series: series
    });
    var rows = entrants.map(function (e, i) {
      var result = i === race.winner ? 'winner' : e.alive ? 'left in the race' : 'dropped: ' + e.drop_reason;
      if (i === race.runner_up) result = 'runner-up; ' + result;
      return [e.label, e.rounds, e.queries, fmt(e.objective.estimate, 4),
              '[' + fmt(e.objective.low, 4) + ', ' + fmt(e.objective.high, 4) + ']', result];
    });
    (race.pruned || []).forEach(function (p) { rows.push([p.label, 0, 0, '-', '-', 'pruned: ' + p.reason]); });
    body.appendChild(table([{label: 'Configuration'}, {label: 'Rounds', num: true},
                            {label: 'Queries', num: true}, {label: objective + ' (' + unit + ')', num: true},
                            {label: 'Interval'}, {label: 'Result', message: true}], rows));
  }

  function drawTune(body, part) {
    part.races.forEach(function (race) { drawRace(body, race); });
  }

  // Every case with a roofline as a point (operations per byte, GFLOP/s) on log-log axes, under
  // the memory roofs (GB/s x intensity) and the compute peaks known; the table gives each point's
  // share of its roof (docs/roofline.md).
  function drawRoofline(body, part) {
    var points = part.points || [];
    if (points.length) {
      var xs = points.map(function (p) { return p.intensity; }).filter(isNumber);
      var peak = (part.peaks || []).reduce(function (m, p) { return Math.max(m, p.gflops); }, 0);
      (part.roofs || []).forEach(function (r) { if (peak > 0) xs.push(peak / r.gb_per_s); });
      // Whole decades around every point and ridge.
      var lo = Math.pow(10, Math.floor(Math.log10(Math.min.apply(null, xs) / 2)));
      var hi = Math.pow(10, Math.ceil(Math.log10(Math.max.apply(null, xs) * 2)));
      var grid = [];
      for (var i = 0; i <= 48; i++) grid.push(lo * Math.pow(hi / lo, i / 48));
      // Several memory roofs (one per host or bandwidth measurement) each get their own dash and a
      // label on their slope, so two roofs of close bandwidth are still told apart.
      var dashes = ['solid', 'dotted', [10, 4, 2, 4], [2, 6]];
      var series = (part.roofs || []).map(function (r, k) {
        var data = grid.map(function (x) { return [x, peak > 0 ? Math.min(r.gb_per_s * x, peak) : r.gb_per_s * x]; });
        var slope = data[Math.min(8 + 6 * k, data.length - 1)];
        return {name: r.label, type: 'line', symbol: 'none', lineStyle: {width: 2, type: dashes[k % dashes.length]},
                data: data,
                markPoint: {symbol: 'pin', symbolSize: 1, data: [{coord: slope, value: fmt(r.gb_per_s, 3) + ' GB/s'}],
                            label: {show: true, position: 'left', formatter: function (m) { return m.value; }}}};
      });
      (part.peaks || []).forEach(function (p) {
        series.push({name: p.label, type: 'line', symbol: 'none', lineStyle: {type: 'dashed'},
                     data: [[lo, p.gflops], [hi, p.gflops]]});
      });
      // A tensor model's case is one point per query; a language model's two, decode and prefill.
      var symbols = {decode: 'circle', prefill: 'diamond', query: 'triangle'};
      ['decode', 'prefill', 'query'].forEach(function (phase) {
        var mine = points.filter(function (p) { return p.phase === phase; });
        if (!mine.length) return;
        series.push({name: phase, type: 'scatter', symbolSize: 11, symbol: symbols[phase],
                     data: mine.map(function (p) { return {name: p.label, value: [p.intensity, p.gflops]}; })});
      });
      draw(chartBox(body, 'roofline/chart', 420), {
        tooltip: {trigger: 'item', confine: true, formatter: function (p) {
          return esc((p.name || p.seriesName) + ': ' + fmt(p.value[0], 3) + ' FLOP/byte, ' + fmt(p.value[1], 3) + ' GFLOP/s');
        }},
        legend: legend(series.map(function (s) { return s.name; })),
        grid: {left: 70, right: 40, top: 50, bottom: 50},
        xAxis: {type: 'log', name: 'operations per byte', nameLocation: 'middle', nameGap: 28, min: lo, max: hi},
        yAxis: {type: 'log', name: 'GFLOP/s'},
        series: series
      });
      body.appendChild(table([{label: 'Case'}, {label: 'Phase'}, {label: 'FLOP/byte', num: true},
                              {label: 'GFLOP/s', num: true}, {label: 'GB/s', num: true},
                              {label: 'Share of roof (%)', num: true}, {label: 'Roof'}],
        points.map(function (p) {
          return [p.label + (p.approximate ? ' (approximate count)' : ''), p.phase, fmt(p.intensity, 3),
                  fmt(p.gflops, 3), fmt(p.gb_per_s, 3), isNumber(p.share) ? fmt(100 * p.share, 3) : '-',
                  p.roof || 'no compute peak known'];
        })));
    }
    if (part.omitted && part.omitted.length) {
      body.appendChild(note('Cases without a roofline:'));
      body.appendChild(el('ul', null, part.omitted.map(function (o) { return el('li', {text: o.label + ': ' + o.reason}); })));
    }
  }

  // --rounds (docs/rounds.md): each case's median across its VALID rounds with its 95% interval,
  // then each model and scenario's targets ranked, each judged against the one above it.
  function drawRounds(body, part) {
    var interval = function (m) {
      if (!isNumber(m.median)) return '-';
      return fmt(m.median, 3) + (isNumber(m.low) ? ' [' + fmt(m.low, 3) + ', ' + fmt(m.high, 3) + ']' : '');
    };
    var first = part.cases[0].first.name, second = part.cases[0].second.name;
    body.appendChild(table([{label: 'Model'}, {label: 'Target'}, {label: 'Scenario'}, {label: 'VALID rounds', num: true},
                            {label: first + ' ms, median [95%]', num: true}, {label: second + ' ms, median [95%]', num: true},
                            {label: 'Spread (%)', num: true}],
      part.cases.map(function (c) {
        return [c.model, c.target, c.scenario, c.valid + '/' + c.rounds, interval(c.first), interval(c.second),
                isNumber(c.first.spread) ? fmt(100 * c.first.spread, 3) : '-'];
      })));
    part.rankings.forEach(function (r) {
      body.appendChild(note('Ranking of ' + r.model + ' (' + r.scenario + ') by median ' + r.metric + ':'));
      body.appendChild(table([{label: '#', num: true}, {label: 'Target'}, {label: r.metric + ' ms', num: true},
                              {label: 'Against the one above', message: true}],
        r.entries.map(function (e, i) {
          var verdict = '';
          if (i > 0) {
            verdict = e.verdict === 'not tested' ? 'not tested: ' + e.note
                : (e.verdict === 'not resolved at this noise' ? 'not separable from ' : e.verdict + ' than ') + e.against +
                  ' (' + fmt(100 * e.change, 3) + '% [' + fmt(100 * e.change_low, 3) + ', ' + fmt(100 * e.change_high, 3) +
                  '], p ' + fmt(e.p, 3) + ')';
          }
          return [i + 1, e.target, interval(e), verdict];
        })));
    });
    body.appendChild(note('Rule: ' + part.rule));
  }

  return {tradeoffs: drawTradeoffsSection, tune: drawTune, roofline: drawRoofline, drawTradeoffs: drawTradeoffs,
          rounds: drawRounds};
};
