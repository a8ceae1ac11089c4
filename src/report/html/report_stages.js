// The edgebench HTML report's pipeline and vision-language sections: each case's stages as shares
// of its time, their table, a diffusion's steps and images, and a VLM request's TTFT stages
// (report_page.cc inlines this file before report.js, which calls edgebenchStageSections with
// its DOM and chart helpers). The same rules as report.js: every chart container carries
// data-chart, data-drawn and data-series; nothing logs.
window.edgebenchStageSections = function (h) {
  'use strict';
  var el = h.el, fmt = h.fmt, note = h.note, legend = h.legend, draw = h.draw, chartBox = h.chartBox, table = h.table;

  // One stacked bar per pipeline case: each stage's share of the end-to-end time, the harness's
  // own part last; then every stage's distribution.
  function drawPipelines(body, part) {
    var cases = part.cases;
    drawShares(body, 'pipelines/share', cases, part.stages, function (c, name) {
      var stage = c.stages.filter(function (s) { return s.name === name; })[0];
      return stage ? +(100 * stage.share).toFixed(2) : 0;
    }, 'share of the end-to-end time (%)');
    var rows = [];
    cases.forEach(function (c) {
      c.stages.forEach(function (s) {
        rows.push([c.label, s.name, s.kind, s.on, fmt(s.calls, 3), fmt(s.p50_ms, 3), fmt(s.p90_ms, 3), fmt(s.p99_ms, 3),
                   fmt(s.mean_ms, 3), fmt(100 * s.share, 3) + '%', fmt(s.cpu_ms, 3)]);
      });
    });
    body.appendChild(table([{label: 'Case'}, {label: 'Stage'}, {label: 'Kind'}, {label: 'On'}, {label: 'Calls/query', num: true},
                            {label: 'p50 ms', num: true}, {label: 'p90 ms', num: true}, {label: 'p99 ms', num: true},
                            {label: 'Mean ms', num: true}, {label: 'Share', num: true}, {label: 'Host CPU ms', num: true}],
                           rows, {sortable: true}));
    var diffusion = cases.filter(function (c) { return c.diffusion; });
    if (diffusion.length) drawDiffusion(body, diffusion);
  }

  // One stacked bar per case: each stage's share (%, shareOf(case, stage)) of the case's time.
  function drawShares(body, id, cases, stages, shareOf, axisName) {
    draw(chartBox(body, id, 90 + 44 * cases.length), {
      tooltip: {trigger: 'axis', confine: true, axisPointer: {type: 'shadow'}}, legend: legend(stages),
      grid: {left: 20, right: 30, top: 40, bottom: 40, containLabel: true},
      // Long labels (a pipeline's targets, then its scenario) wrap rather than lose their end.
      yAxis: {type: 'category', inverse: true, data: cases.map(function (c) { return c.label; }),
              axisLabel: {width: 380, overflow: 'break', lineHeight: 15}},
      xAxis: {type: 'value', max: 100, name: axisName, nameLocation: 'middle', nameGap: 26},
      series: stages.map(function (name) {
        return {name: name, type: 'bar', stack: 'share', barMaxWidth: 26, data: cases.map(function (c) { return shareOf(c, name); })};
      })
    });
  }

  // Vision-language requests: TTFT's stages as shares, then their medians and the image part.
  function drawVlm(body, part) {
    var num = function (label) { return {label: label, num: true}; }, ms = function (v) { return fmt(v, 3); };
    drawShares(body, 'vlm/ttft', part.cases, part.stages, function (c, name) {
      return +(100 * c.shares[part.stages.indexOf(name)]).toFixed(2);
    }, 'share of TTFT over the measured requests (%)');
    body.appendChild(table([{label: 'Case'}, num('Image tokens'), num('Images/request')].concat(
      part.stages.map(function (s) { return num(s + ' p50 ms'); }), [num('TTFT image part p50 ms'),
      num('TTFT text part p50 ms'), num('TTFT p50 ms'), {label: 'Vision tower on'}]), part.cases.map(function (c) {
      return [c.label, fmt(c.image_tokens, 4), c.images_per_request].concat(c.p50_ms.map(ms),
        [ms(c.image_part_p50_ms), ms(c.text_part_p50_ms), ms(c.ttft_p50_ms), c.vision_device]);
    }), {sortable: true}));
  }

  // A diffusion's loop: each case's UNet step time per step index (the first apart), the
  // steps' table, and the image each target drew from the same seeded latents.
  function drawDiffusion(body, cases) {
    body.appendChild(el('h3', {text: 'Diffusion steps'}));
    var unetOf = function (c) { return c.diffusion.steps[0] || {by_step_p50_ms: []}; };
    var most = Math.max.apply(null, cases.map(function (c) { return unetOf(c).by_step_p50_ms.length; }));
    var steps = [];
    for (var i = 0; i < most; ++i) steps.push(String(i));
    draw(chartBox(body, 'pipelines/steps', 320), {
      tooltip: {trigger: 'axis', confine: true},
      legend: legend(cases.map(function (c) { return c.label; })),
      grid: {left: 20, right: 30, top: 40, bottom: 40, containLabel: true},
      xAxis: {type: 'category', data: steps, name: 'step', nameLocation: 'middle', nameGap: 26},
      yAxis: {type: 'value', name: unetOf(cases[0]).stage + ' p50 (ms)'},
      series: cases.map(function (c) {
        return {name: c.label, type: 'line', data: unetOf(c).by_step_p50_ms};
      })
    });
    var rows = [];
    cases.forEach(function (c) {
      c.diffusion.steps.forEach(function (s) {
        rows.push([c.label, s.stage, fmt(s.steps, 3), fmt(s.p50_ms, 3), fmt(s.first_p50_ms, 3), fmt(s.later_p50_ms, 3)]);
      });
    });
    body.appendChild(table([{label: 'Case'}, {label: 'Stage'}, {label: 'Steps', num: true}, {label: 'Step p50 ms', num: true},
                            {label: 'First step p50 ms', num: true}, {label: 'Later steps p50 ms', num: true}],
                           rows, {sortable: true}));
    var pictures = cases.filter(function (c) { return c.diffusion.image; });
    if (pictures.length) {
      body.appendChild(el('div', {className: 'diffusion-images'}, pictures.map(function (c) {
        var latents = c.diffusion.outputs.filter(function (o) { return o.name === 'final_latents'; })[0];
        var caption = c.label + (latents ? ': final latents mean ' + fmt(latents.mean, 3) + ', sd ' + fmt(latents.stddev, 3) +
                                 (latents.non_finite ? ', ' + latents.non_finite + ' non-finite' : '') : '');
        return el('figure', null, [el('img', {src: c.diffusion.image, alt: c.label}), el('figcaption', {text: caption})]);
      })));
    }
    body.appendChild(note('Every target starts from the same seeded prompt and latents (random weights: the images are ' +
                          'noise, alike only where the runtimes agree). How far two targets\' final latents and images ' +
                          'differ: edgebench agree PIPELINE.yaml --target A,B (docs/diffusion.md).'));
  }

  return {pipelines: drawPipelines, vlm: drawVlm};
};
