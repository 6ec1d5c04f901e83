// MovieMaker Studio: the page. Plain JavaScript, no build step, no libraries.
// It asks the server for the movie (/api/movie), frames (/api/frame/N?scale=S), and listens to
// /api/events for reloads, errors and render progress. window.studio is for the browser tests.
(() => {
  'use strict';
  const params = new URLSearchParams(location.search);
  const token = params.get('token');
  const forcedScale = params.has('scale') ? Number(params.get('scale')) : null;
  const $ = (id) => document.getElementById(id);
  const api = (path) => token ? path + (path.includes('?') ? '&' : '?') + 'token=' + encodeURIComponent(token) : path;

  const state = {
    info: null, movie: null, frame: 0, shown: -1, playing: false, playStart: 0, playFrom: 0,
    wanted: null, loading: false, lastLatency: null, objectURL: null, version: 0,
  };
  const saved = Number(sessionStorage.getItem('studio.frame'));
  if (Number.isInteger(saved) && saved >= 0) state.frame = saved;
  // ?frame=N opens the page at frame N (a link to a moment; clamped to the movie once it is known).
  const linked = params.has('frame') ? Number(params.get('frame')) : NaN;
  if (Number.isInteger(linked) && linked >= 0) state.frame = linked;

  // Exact time of frame i at numerator/denominator fps, in thousandths of a second, rounded half up.
  function frameLabel(i) {
    const m = state.movie;
    if (!m) return `frame ${i}`;
    const num = BigInt(m.fps.numerator), den = BigInt(m.fps.denominator);
    const thousandths = (BigInt(i) * den * 2000n + num) / (2n * num);
    const whole = thousandths / 1000n, part = (thousandths % 1000n).toString().padStart(3, '0');
    return `frame ${i} · ${whole}.${part} s`;
  }

  // The scale frames are asked at: enough pixels for the image's size on screen at this screen's
  // devicePixelRatio, in a few steps so the cache is reused; low while playing.
  function frameScale() {
    if (forcedScale) return forcedScale;
    const m = state.movie;
    if (!m) return 1;
    const stage = $('stage');
    const wanted = Math.min(stage.clientWidth / m.width, (stage.clientHeight || stage.clientWidth * m.height / m.width) / m.height) * (window.devicePixelRatio || 1);
    const steps = state.playing ? [0.125, 0.25, 0.5] : [0.125, 0.25, 0.5, 0.75, 1];
    return steps.find((s) => s >= wanted) || steps[steps.length - 1];
  }

  // Asks for frame `index`; only the latest request is loaded next (scrubbing skips frames).
  function requestFrame(index) {
    if (!state.movie) return;
    state.wanted = { index, scale: frameScale(), key: state.movie.treeKey, at: performance.now() };
    if (!state.loading) loadFrames();
  }

  async function loadFrames() {
    state.loading = true;
    try {
      while (state.wanted) {
        const w = state.wanted;
        state.wanted = null;
        let response;
        try {
          response = await fetch(api(`/api/frame/${w.index}?scale=${w.scale}&key=${w.key}`));
        } catch (e) { setStatus('server unreachable', true); break; }
        if (!response.ok) {
          // A frame that could not be drawn (a script that stopped at it): say why instead of keeping silent.
          try { setStatus(`frame ${w.index}: ${(await response.json()).error}`, true); } catch (e) { setStatus(`frame ${w.index}: HTTP ${response.status}`, true); }
          continue;
        }
        const blob = await response.blob();
        const url = URL.createObjectURL(blob);
        const img = $('frame');
        img.src = url;
        try { await img.decode(); } catch (e) { /* shown when loaded */ }
        if (state.objectURL) URL.revokeObjectURL(state.objectURL);
        state.objectURL = url;
        state.shown = w.index;
        state.lastLatency = performance.now() - w.at;
        Object.assign(document.body.dataset, { shownFrame: w.index, shownKey: w.key, shownScale: w.scale, latency: state.lastLatency.toFixed(1) });
      }
    } finally {
      state.loading = false;
    }
  }

  function seek(index, options = {}) {
    const m = state.movie;
    if (!m) return;
    index = Math.max(0, Math.min(m.frameCount - 1, Math.round(index)));
    state.frame = index;
    sessionStorage.setItem('studio.frame', String(index));
    $('scrubber').value = String(index);
    $('position').textContent = frameLabel(index);
    placePlayhead();
    if (!options.noFrame) requestFrame(index);
  }

  // Play: the frame shown is derived from the clock and the frame rate, so it never drifts from the
  // counter. With sound, the clock is the sound's own position (so picture and sound stay together);
  // without (or when the browser will not play it), the page's clock.
  function play() {
    const m = state.movie;
    if (!m) return;
    if (state.frame >= m.frameCount - 1) seek(0, { noFrame: true });
    state.playing = true;
    state.playFrom = state.frame;
    state.audioClock = false;
    const audio = $('audio');
    if (m.hasSound && state.waveform && state.waveform.length) {
      const src = api(`/api/audio.wav?v=${state.version}`);
      if (audio.dataset.src !== src) { audio.src = src; audio.dataset.src = src; }
      const startTime = state.frame * m.fps.denominator / m.fps.numerator;
      state.audioFrom = startTime;
      audio.currentTime = startTime;
      audio.play().then(() => { if (state.playing) state.audioClock = true; }).catch(() => {});
    }
    // Low-resolution proxies drawn ahead, in the background, from here to the end.
    fetch(api(`/api/proxies?scale=${frameScale()}&from=${state.frame}`), { method: 'POST' }).catch(() => {});
    state.playStart = performance.now();
    $('play').textContent = '❚❚';
    const tick = () => {
      if (!state.playing) return;
      const audio = $('audio');
      const elapsed = state.audioClock && !audio.paused ? audio.currentTime - state.audioFrom : (performance.now() - state.playStart) / 1000;
      const index = state.playFrom + Math.floor(elapsed * m.fps.numerator / m.fps.denominator);
      if (index >= m.frameCount) { pause(); seek(m.frameCount - 1); return; }
      if (index !== state.frame) seek(index);
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  }
  function pause() {
    state.playing = false;
    state.audioClock = false;
    $('audio').pause();
    $('play').textContent = '▶';
    requestFrame(state.frame);
  }

  function setStatus(text, bad) {
    const s = $('status');
    s.textContent = text;
    s.classList.toggle('bad', !!bad);
  }

  function placePlayhead() {
    const m = state.movie, tl = $('timeline');
    if (!m || !m.frameCount) return;
    const x = (state.frame * m.fps.denominator / m.fps.numerator) * pixelsPerSecond();
    $('playhead').style.left = `${x}px`;
    void tl;
  }
  function pixelsPerSecond() {
    const m = state.movie;
    return m && m.duration > 0 ? $('tracks').clientWidth / m.duration : 0;
  }

  // Lanes for a track's items: items placed at times (overlay and audio tracks) may overlap, and each
  // takes the first lane free at its start, so none hides another. A video track's items follow each
  // other (a transition's overlap shows as its dashed edge): one lane.
  function lanes(track) {
    if (track.kind === 'video') return { of: track.items.map(() => 0), count: 1 };
    const ends = [], of = new Array(track.items.length);
    const order = track.items.map((item, i) => i).sort((a, b) => track.items[a].start - track.items[b].start);
    for (const i of order) {
      const item = track.items[i];
      let lane = ends.findIndex((end) => end <= item.start + 1e-9);
      if (lane < 0) { lane = ends.length; ends.push(0); }
      ends[lane] = item.start + item.duration;
      of[i] = lane;
    }
    return { of, count: Math.max(1, ends.length) };
  }

  // The composition as a timeline: one row per track (a lane per overlapping item), one block per item,
  // width proportional to duration.
  function drawTimeline() {
    const m = state.movie, tracks = $('tracks'), ruler = $('ruler');
    tracks.textContent = '';
    ruler.textContent = '';
    if (!m) return;
    const pps = pixelsPerSecond();
    const step = m.duration > 60 ? 10 : m.duration > 20 ? 5 : 1;
    for (let t = 0; t <= m.duration; t += step) {
      const mark = document.createElement('span');
      mark.style.left = `${t * pps}px`;
      mark.textContent = `${t}s`;
      ruler.appendChild(mark);
    }
    for (const track of m.tracks) {
      const row = document.createElement('div');
      row.className = 'track';
      row.dataset.track = track.index;
      const placed = lanes(track);
      row.style.height = `${30 + (placed.count - 1) * 27}px`;
      const label = document.createElement('span');
      label.className = 'label';
      label.textContent = track.name || track.kind;
      row.appendChild(label);
      track.items.forEach((item, i) => {
        const block = document.createElement('div');
        block.className = `block ${item.type}` + (item.transition ? ' transition-out' : '');
        block.style.left = `${item.start * pps}px`;
        block.style.top = `${3 + placed.of[i] * 27}px`;
        block.dataset.lane = placed.of[i];
        block.style.width = `${item.duration * pps}px`;
        block.dataset.path = item.path;
        block.dataset.start = item.start;
        block.dataset.duration = item.duration;
        block.dataset.startFrame = item.startFrame;
        block.title = `${item.path}: ${item.type} ${item.what}${item.detail ? '; ' + item.detail : ''}\n${frameLabel(item.startFrame)} → ${frameLabel(item.endFrame)}`;
        block.textContent = item.name || item.what || item.type;
        block.addEventListener('click', (e) => { e.stopPropagation(); pause(); seek(item.startFrame); });
        row.appendChild(block);
      });
      tracks.appendChild(row);
    }
    // The captions' words, each where it is spoken (its text shown when there is room).
    if (m.words && m.words.length) {
      const row = document.createElement('div');
      row.className = 'track words';
      row.style.height = '30px';
      const label = document.createElement('span');
      label.className = 'label';
      label.textContent = 'words';
      row.appendChild(label);
      for (const word of m.words) {
        const span = document.createElement('div');
        span.className = 'word';
        span.style.left = `${word.start * pps}px`;
        const width = Math.max(2, (word.end - word.start) * pps);
        span.style.width = `${width}px`;
        span.title = `${word.text}  ${word.start.toFixed(2)}–${word.end.toFixed(2)} s`;
        if (width > 6 * word.text.length) span.textContent = word.text;
        span.addEventListener('click', (e) => { e.stopPropagation(); pause(); seek(Math.floor(word.start * m.fps.numerator / m.fps.denominator + 1e-9)); });
        row.appendChild(span);
      }
      tracks.appendChild(row);
    }
    highlightError();
    placePlayhead();
    drawWaveform();
  }

  // The sound under the timeline: the largest sample in each part of the movie, as bars.
  function drawWaveform() {
    const canvas = $('waveform'), peaks = state.waveform;
    canvas.hidden = !(peaks && peaks.length);
    if (canvas.hidden) return;
    const width = $('tracks').clientWidth, height = 40;
    const ratio = window.devicePixelRatio || 1;
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(height * ratio);
    const g = canvas.getContext('2d');
    g.scale(ratio, ratio);
    g.fillStyle = '#5e9a5e';
    for (let x = 0; x < width; x++) {
      const from = Math.floor(x * peaks.length / width), to = Math.max(from + 1, Math.floor((x + 1) * peaks.length / width));
      let peak = 0;
      for (let i = from; i < to && i < peaks.length; i++) peak = Math.max(peak, peaks[i]);
      const h = Math.max(1, peak * (height - 4));
      g.fillRect(x, (height - h) / 2, 1, h);
    }
  }

  async function loadWaveform() {
    state.waveform = null;
    if (!state.movie || !state.movie.hasSound) { drawWaveform(); return; }
    try {
      const body = await (await fetch(api('/api/waveform'))).json();
      state.waveform = body.peaks || [];
    } catch (e) { state.waveform = []; }
    drawWaveform();
  }

  function highlightError() {
    const error = state.info && state.info.error;
    for (const block of document.querySelectorAll('.block')) {
      const p = block.dataset.path;
      const hit = !!(error && error.jsonPath && (error.jsonPath === p || error.jsonPath.startsWith(p + '.') || error.jsonPath.startsWith(p + '[')));
      block.classList.toggle('error', hit);
    }
  }

  function drawPanels() {
    const info = state.info, m = state.movie;
    $('file').textContent = info ? info.file : '';
    const error = info && info.error;
    $('error').hidden = !error;
    document.body.classList.toggle('broken', !!error);
    if (error) {
      $('error-path').textContent = error.jsonPath || (error.line ? `${error.file}:${error.line}` : (error.file || ''));
      $('error-message').textContent = error.message;
      setStatus(`error: ${error.jsonPath ? error.jsonPath + ': ' : ''}${error.message}`, true);
    } else {
      setStatus(`version ${info ? info.version : '?'} · live`);
    }
    const dl = $('settings');
    dl.textContent = '';
    if (m) {
      const fps = m.fps.denominator === 1 ? `${m.fps.numerator}` : `${m.fps.numerator}/${m.fps.denominator}`;
      const rows = [['size', m.output.size], ['fps', fps], ['frames', m.frameCount], ['duration', `${m.duration.toFixed(3)} s`],
        ['encoder', m.output.lossless ? `lossless, ${m.output.preset}` : `crf ${m.output.crf}, ${m.output.preset}`],
        ['sound', m.hasSound ? 'yes' : 'none'], ['alpha', m.output.transparent ? 'yes' : 'no']];
      for (const [k, v] of rows) {
        const dt = document.createElement('dt'); dt.textContent = k;
        const dd = document.createElement('dd'); dd.textContent = String(v);
        dl.append(dt, dd);
      }
    }
    // A platform preset's safe area: where titles and captions stay clear of the app's buttons.
    const safe = m && m.output.safeArea;
    $('safe-toggle').hidden = !safe;
    const box = $('safe-area');
    if (safe) {
      $('safe-label').textContent = `show ${safe.platform}'s safe area`;
      Object.assign(box.style, { left: `${100 * safe.left}%`, top: `${100 * safe.top}%`,
                                 width: `${100 * safe.width}%`, height: `${100 * safe.height}%` });
    }
    box.hidden = !safe || !$('show-safe').checked;
    const form = $('slots');
    if (!form.contains(document.activeElement)) {
      form.textContent = '';
      for (const slot of (m ? m.slots : [])) {
        const label = document.createElement('label');
        label.textContent = `${slot.name} (${slot.kind})`;
        label.title = slot.description || '';
        const input = document.createElement('input');
        input.name = slot.name;
        input.placeholder = slot.defaultValue || '';
        input.value = slot.value || '';
        input.title = slot.kind === 'text' || slot.kind === 'color' ? 'Type a value; empty uses the default' : 'A file path (relative to the description\'s folder, or absolute); empty uses the default';
        input.addEventListener('change', () => setSlot(slot.name, input.value));
        label.appendChild(input);
        form.appendChild(label);
      }
      if (!m || !m.slots.length) form.textContent = 'This description has no slots.';
    }
    const warnings = m ? m.warnings : [];
    $('warnings-box').hidden = !warnings.length;
    $('warnings').innerHTML = '';
    for (const w of warnings) { const li = document.createElement('li'); li.textContent = w; $('warnings').appendChild(li); }
    if (info && info.render) showRender(info.render);
  }

  async function setSlot(name, value) {
    await fetch(api('/api/slots'), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ [name]: value }) });
  }

  function showRender(status) {
    const bar = $('render-progress'), text = $('render-status');
    bar.hidden = false;
    bar.value = status.totalFrames ? status.frames / status.totalFrames : 0;
    if (status.state === 'running') {
      text.textContent = `rendering ${status.file}: frame ${status.frames} of ${status.totalFrames}`;
    } else if (status.state === 'done') {
      text.innerHTML = '';
      const a = document.createElement('a');
      a.href = api(status.link); a.textContent = status.file; a.target = '_blank';
      text.append('done in ' + status.elapsed.toFixed(1) + ' s: ', a);
    } else {
      text.textContent = `${status.state}: ${status.message || ''}`;
    }
    $('render').disabled = status.state === 'running';
  }

  async function refresh() {
    let info;
    try {
      info = await (await fetch(api('/api/movie'))).json();
    } catch (e) { setStatus('server unreachable', true); return; }
    state.info = info;
    state.version = info.version;
    state.movie = info.movie || null;
    document.body.dataset.version = info.version;
    document.body.dataset.ok = info.ok;
    const m = state.movie;
    if (m) {
      $('scrubber').max = String(Math.max(0, m.frameCount - 1));
      $('stage').style.aspectRatio = `${m.width} / ${m.height}`;
    }
    drawPanels();
    drawTimeline();
    if (m) seek(Math.min(state.frame, m.frameCount - 1));
    loadWaveform();
  }

  // Wiring.
  $('scrubber').addEventListener('input', (e) => { if (state.playing) pause(); seek(Number(e.target.value)); });
  $('show-safe').addEventListener('change', () => { $('safe-area').hidden = !$('show-safe').checked || $('safe-toggle').hidden; });
  $('play').addEventListener('click', () => (state.playing ? pause() : play()));
  $('timeline').addEventListener('click', (e) => {
    const m = state.movie;
    if (!m) return;
    const x = e.clientX - $('tracks').getBoundingClientRect().left;
    pause();
    seek(Math.floor((x / pixelsPerSecond()) * m.fps.numerator / m.fps.denominator));
  });
  document.addEventListener('keydown', (e) => {
    if (e.target && (e.target.tagName === 'INPUT' && e.target.type !== 'range')) return;
    const m = state.movie;
    if (!m) return;
    const step = e.shiftKey ? 10 : 1;
    if (e.key === 'ArrowRight') { e.preventDefault(); if (state.playing) pause(); seek(state.frame + step); }
    else if (e.key === 'ArrowLeft') { e.preventDefault(); if (state.playing) pause(); seek(state.frame - step); }
    else if (e.key === ' ') { e.preventDefault(); state.playing ? pause() : play(); }
    else if (e.key === 'Home') { e.preventDefault(); seek(0); }
    else if (e.key === 'End') { e.preventDefault(); seek(m.frameCount - 1); }
  });
  $('render').addEventListener('click', async () => {
    const response = await fetch(api('/api/render'), { method: 'POST' });
    const body = await response.json();
    if (response.ok) showRender(body); else $('render-status').textContent = body.error;
  });
  window.addEventListener('resize', () => { drawTimeline(); requestFrame(state.frame); });

  const events = new EventSource(api('/api/events'));
  events.addEventListener('hello', (e) => { const v = JSON.parse(e.data).version; if (v !== state.version) refresh(); setStatus(`version ${v} · live`); });
  events.addEventListener('reload', () => refresh());
  events.addEventListener('error', (e) => { if (e.data) refresh(); else setStatus('reconnecting…', true); });
  events.addEventListener('render', (e) => showRender(JSON.parse(e.data)));

  window.studio = { state, seek, refresh, frameLabel, play, pause };
  refresh();
})();
