// The edgebench HTML report's mix section (docs/mixes.md): for each run of a mix file, one shared
// timeline of its mixed phase (each workload's latency, or a language model's time to first
// token, at each query's arrival, with the moments each workload's process started and ended),
// each process's CPU and memory and the machine's series beneath on the same time axis, and the
// interference table. report_page.cc inlines this file before report.js, which calls
// edgebenchMixSection with its DOM and chart helpers. The same rules as report.js: every chart
// container carries data-chart, data-drawn and data-series; nothing logs.
window.edgebenchMixSection = function (h) {
  'use strict';
  var el = h.el, fmt = h.fmt, note = h.note, legend = h.legend, draw = h.draw, chartBox = h.chartBox, table = h.table;
  var isNumber = h.isNumber;

  var MACHINE_SERIES = {
    cpu_util_pct: {name: 'machine CPU (% busy, mean of cores)', axis: '%'},
    temperature_c: {name: 'temperature (°C, hottest zone)', axis: '°C'},
    frequency_mhz: {name: 'frequency (MHz, mean of cores)', axis: 'MHz'},
    power_w: {name: 'power (W, device total)', axis: 'W'}
  };

  function xAxis(end) {
    return {type: 'value', name: 'time from the mixed phase\'s start (s)', nameLocation: 'middle', nameGap: 26,
            min: 0, max: end > 0 ? end : null};
  }

  // A vertical line where each workload's process started and where it ended (with its exit
  // status when it was not 0), on the first series.
  function processMarks(lanes) {
    var data = [];
    lanes.forEach(function (lane) {
      if (isNumber(lane.started_s)) data.push({xAxis: lane.started_s, name: lane.name + ' starts'});
      if (isNumber(lane.ended_s)) {
        var died = isNumber(lane.exit_code) && lane.exit_code !== 0;
        data.push({xAxis: lane.ended_s, name: lane.name + (died ? ' died (exit ' + lane.exit_code + ')' : ' ends'),
                   lineStyle: died ? {color: '#8e1b10', type: 'solid', width: 2} : undefined});
      }
    });
    // Moments closer than 0.3 s share one line, its label naming them all.
    data.sort(function (a, b) { return a.xAxis - b.xAxis; });
    var merged = [];
    data.forEach(function (d) {
      var last = merged[merged.length - 1];
      if (last && d.xAxis - last.xAxis < 0.3) {
        last.name += '; ' + d.name;
        if (d.lineStyle) last.lineStyle = d.lineStyle;
      } else {
        merged.push(d);
      }
    });
    return {symbol: 'none', silent: true, lineStyle: {type: 'dashed', color: '#7f8c8d'},
            label: {formatter: '{b}', position: 'insideEndTop', fontSize: 10}, data: merged};
  }

  function drawTimeline(body, run, index) {
    var lanes = run.workloads;
    var series = lanes.map(function (lane) {
      return {name: lane.name + ': ' + lane.metric, type: 'scatter', symbolSize: 4, data: lane.points};
    });
    if (series.length) {
      series[0].markLine = processMarks(lanes);
      if (isNumber(run.overlap_from_s) && run.overlap_to_s > run.overlap_from_s) {
        series[0].markArea = {silent: true, itemStyle: {color: 'rgba(42,93,176,0.08)'},
                              label: {position: 'insideTop', fontSize: 10},
                              data: [[{name: 'all measured at once', xAxis: run.overlap_from_s}, {xAxis: run.overlap_to_s}]]};
      }
    }
    draw(chartBox(body, 'mixes/' + index + '-timeline', 340), {
      tooltip: {trigger: 'item', confine: true},
      legend: legend(series.map(function (s) { return s.name; })),
      grid: {left: 70, right: 30, top: 40, bottom: 45},
      xAxis: xAxis(run.end_s),
      yAxis: {type: 'log', name: 'ms (log)', scale: true},
      series: series
    });
    var grouped = lanes.filter(function (lane) { return lane.grouped; }).map(function (lane) { return lane.name; });
    if (grouped.length) {
      body.appendChild(note('Too many queries to draw each (' + grouped.join(', ') + '): each point is the slowest ' +
                            'of its group of consecutive queries, so no spike is hidden.'));
    }
  }

  // Each workload's process CPU (%, 100 = one core) with the machine's CPU, then each one's memory.
  function drawProcesses(body, run, index) {
    var lanes = run.workloads.filter(function (lane) { return lane.cpu; });
    var cpu = lanes.map(function (lane) {
      return {name: (lane.process_name || lane.name) + ' CPU (%)', type: 'line', showSymbol: false,
              data: lane.cpu.t_s.map(function (t, k) { return [t, lane.cpu.process_cpu_pct[k]]; })};
    });
    var machine = run.machine;
    if (machine) {
      cpu.push({name: MACHINE_SERIES.cpu_util_pct.name, type: 'line', showSymbol: false, lineStyle: {type: 'dashed'},
                data: machine.t_s.map(function (t, k) { return [t, machine.cpu_util_pct[k]]; })});
    }
    if (cpu.length) {
      cpu[0].markLine = processMarks(run.workloads);
      draw(chartBox(body, 'mixes/' + index + '-cpu', 280), {
        tooltip: {trigger: 'axis', confine: true},
        legend: legend(cpu.map(function (s) { return s.name; })),
        grid: {left: 70, right: 30, top: 40, bottom: 45},
        xAxis: xAxis(run.end_s),
        yAxis: {type: 'value', name: '% of one core / % busy', scale: true},
        series: cpu
      });
    }
    var memory = lanes.map(function (lane) {
      return {name: (lane.process_name || lane.name) + ' RSS (MiB)', type: 'line', showSymbol: false,
              data: lane.cpu.t_s.map(function (t, k) { return [t, lane.cpu.rss_mb[k]]; })};
    });
    if (memory.length) {
      draw(chartBox(body, 'mixes/' + index + '-memory', 240), {
        tooltip: {trigger: 'axis', confine: true},
        legend: legend(memory.map(function (s) { return s.name; })),
        grid: {left: 70, right: 30, top: 40, bottom: 45},
        xAxis: xAxis(run.end_s),
        yAxis: {type: 'value', name: 'MiB', scale: true},
        series: memory
      });
    }
    var others = machine ? machine.series.filter(function (n) { return n !== 'cpu_util_pct'; }) : [];
    if (others.length) {
      draw(chartBox(body, 'mixes/' + index + '-device', 260), {
        tooltip: {trigger: 'axis', confine: true},
        legend: legend(others.map(function (n) { return MACHINE_SERIES[n].name; })),
        grid: {left: 70, right: others.length > 1 ? 130 : 80, top: 40, bottom: 45},
        xAxis: xAxis(run.end_s),
        yAxis: others.map(function (n, i) {
          return {type: 'value', name: MACHINE_SERIES[n].axis, scale: true, position: i === 0 ? 'left' : 'right',
                  offset: i > 1 ? 60 : 0, alignTicks: false};
        }),
        series: others.map(function (n, i) {
          return {name: MACHINE_SERIES[n].name, type: 'line', yAxisIndex: i, showSymbol: false,
                  data: machine.t_s.map(function (t, k) { return [t, machine[n][k]]; })};
        })
      });
    }
    var shared = run.workloads.some(function (lane) { return lane.shared_process; });
    var own = shared
        ? 'the workloads ran on threads of one process (isolation: together): its CPU and memory are all of theirs.'
        : 'each workload\'s CPU and memory are its own worker\'s.';
    if (machine) {
      body.appendChild(note(machine.source === 'the mix'
          ? 'The machine\'s series were read once by the mix over the phase; ' + own
          : 'The machine\'s series are those the monitor of ' + machine.source + '\'s worker read; ' + own));
    } else if (shared) {
      body.appendChild(note(own.charAt(0).toUpperCase() + own.slice(1)));
    }
  }

  function percent(v) { return isNumber(v) ? fmt(100 * v, 3) + '%' : '-'; }

  function drawInterference(body, run) {
    var rows = run.interference.map(function (r) {
      var ratio = isNumber(r.ratio) ? 'x' + fmt(r.ratio, 3) : '-';
      if (isNumber(r.ratio_low) && isNumber(r.ratio_high)) ratio += ' [' + fmt(r.ratio_low, 3) + ', ' + fmt(r.ratio_high, 3) + ']';
      var objectives = r.objectives.map(function (o) {
        return o.text + ' ' + (o.met ? 'met' : isNumber(o.value) ? 'NOT met' : 'no figure');
      }).join('; ');
      return [r.workload, r.metric, fmt(r.alone, 4), fmt(r.mixed, 4), ratio, r.rounds, r.mixed_samples + ' of ' + r.mixed_samples_total,
              percent(r.dropped_alone),
              percent(r.dropped_mixed), r.mixed_status + (r.mixed_status === 'ok' && !r.mixed_valid ? ' (INVALID)' : ''),
              objectives || '-'];
    });
    body.appendChild(table([{label: 'Workload'}, {label: 'Metric'}, {label: 'Alone', num: true}, {label: 'Mixed', num: true},
                            {label: 'Mixed / alone [95%]', num: true}, {label: 'Rounds', num: true}, {label: 'Mixed queries used', num: true},
                            {label: 'Dropped alone', num: true},
                            {label: 'Dropped mixed', num: true}, {label: 'Mixed status'}, {label: 'Objectives', message: true}],
                           rows));
    var spans = run.rounds.filter(function (r) { return isNumber(r.overlap_from_s); }).map(function (r) {
      return (run.rounds.length > 1 ? 'round ' + r.round + ': ' : '') + fmt(r.overlap_from_s, 3) + ' s to ' +
             fmt(r.overlap_to_s, 3) + ' s';
    });
    if (spans.length) {
      body.appendChild(note('Mixed figures come from the queries that arrived while every workload was in its measured ' +
                            'phase (' + spans.join('; ') + ', shaded above); a warmup or tail that ran beside fewer ' +
                            'workloads is not counted' + (run.rounds.length > 1 ? ', and every round\'s queries are ' +
                            'pooled.' : '.')));
    }
  }

  return function drawMixes(body, part) {
    part.runs.forEach(function (run, index) {
      body.appendChild(el('h3', {text: 'Mix ' + run.mix + ' (' + run.run + ')'}));
      run.rounds.forEach(function (round) {
        if (run.rounds.length > 1) body.appendChild(el('h4', {text: 'Round ' + round.round + ': the mixed phase'}));
        var id = index + '-' + round.round;
        drawTimeline(body, round, id);
        drawProcesses(body, round, id);
      });
      if (!run.rounds.length) {
        body.appendChild(note('No record of this mix ran beside the others with the moments it began: there is no ' +
                              'timeline to draw.'));
      }
      drawInterference(body, run);
    });
  };
};
