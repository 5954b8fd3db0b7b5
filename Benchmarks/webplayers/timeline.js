// The harness page's logic: load one player build from /lib/, play the URL with its defaults, and record
// what it did. Times are epoch milliseconds (Date.now()), the clock the shaper's request log uses too.
'use strict';
(function () {
  const q = new URLSearchParams(location.search);
  const name = q.get('player'), src = q.get('src'), limit = Number(q.get('limit') || 120);
  const video = document.getElementById('video');
  const events = [], samples = [], segments = [];
  let finished = false;

  function log(type, detail) { events.push({ t: Date.now(), type, detail: detail === undefined ? null : detail }); }
  // Player event objects hold cycles and media buffers: keep scalars only, one level down.
  function flat(o, depth) {
    if (o === null || typeof o !== 'object') return o;
    if (depth <= 0) return undefined;
    const r = {};
    for (const k in o) {
      let v; try { v = o[k]; } catch (e) { continue; }
      if (v === null || ['string', 'number', 'boolean'].includes(typeof v)) r[k] = v;
      else if (typeof v === 'object' && !(v instanceof ArrayBuffer) && !ArrayBuffer.isView(v)) {
        const f = flat(v, depth - 1); if (f !== undefined) r[k] = f;
      }
    }
    return r;
  }
  function ranges(tr) { const r = []; for (let i = 0; i < tr.length; i++) r.push([tr.start(i), tr.end(i)]); return r; }
  // Each SourceBuffer's own ranges (video.buffered is their intersection), for the samples: the page keeps
  // the ones the player adds.
  const sourceBuffers = [];
  if (window.MediaSource) {
    const add = MediaSource.prototype.addSourceBuffer;
    MediaSource.prototype.addSourceBuffer = function (type) {
      const sb = add.call(this, type); sourceBuffers.push({ type, sb }); return sb;
    };
  }
  function sourceRanges() {
    return sourceBuffers.map((s) => { try { return { type: s.type, buffered: ranges(s.sb.buffered) }; }
      catch (e) { return { type: s.type, buffered: null }; } });
  }

  function post(final, reason) {
    const body = JSON.stringify({ player: name, src, final, reason: reason || null, ua: navigator.userAgent,
      version: playerVersion(), events, samples, segments });
    return fetch('/collect', { method: 'POST', body, keepalive: !final || body.length < 60000 });
  }
  function finish(reason) {
    if (finished) return; finished = true;
    log('finish', reason);
    post(true, reason);
  }
  function playerVersion() {
    try {
      if (name === 'hlsjs') return Hls.version;
      if (name === 'dashjs') return dashjs.Version || (dashjs.MediaPlayer && dashjs.MediaPlayer().create().getVersion());
      if (name === 'shaka') return shaka.Player.version;
    } catch (e) { return String(e); }
    return null;
  }

  for (const e of ['loadstart', 'loadedmetadata', 'loadeddata', 'canplay', 'canplaythrough', 'play', 'playing',
    'waiting', 'stalled', 'pause', 'seeking', 'seeked', 'ratechange', 'ended', 'error']) {
    video.addEventListener(e, () => log('video.' + e, {
      currentTime: video.currentTime, readyState: video.readyState, playbackRate: video.playbackRate,
      error: video.error ? { code: video.error.code, message: video.error.message } : undefined,
      source_buffers: e === 'waiting' || e === 'playing' ? sourceRanges() : undefined }));
  }
  video.addEventListener('ended', () => setTimeout(() => finish('ended'), 300));
  setInterval(() => samples.push({ t: Date.now(), currentTime: video.currentTime, paused: video.paused,
    readyState: video.readyState, playbackRate: video.playbackRate, buffered: ranges(video.buffered),
    width: video.videoWidth, height: video.videoHeight, source_buffers: sourceRanges(), frames: frames() }), 250);
  // Decoded and dropped frames so far: a player that switches down on dropped frames (dash.js's
  // DroppedFramesRule) is reacting to the machine's CPU, not the link.
  function frames() {
    const q = video.getVideoPlaybackQuality ? video.getVideoPlaybackQuality() : null;
    return q ? { total: q.totalVideoFrames, dropped: q.droppedVideoFrames } : null;
  }
  setTimeout(() => finish('limit'), limit * 1000);

  function load(url) {
    return new Promise((ok, fail) => {
      const s = document.createElement('script'); s.src = url; s.onload = ok; s.onerror = () => fail(url);
      document.head.appendChild(s);
    });
  }

  async function start() {
    log('page', { player: name, src });
    if (name === 'hlsjs') {
      await load('/lib/hls.min.js');
      const hls = new Hls();
      log('version', Hls.version);
      hls.on(Hls.Events.FRAG_LOADED, (_, d) => { if (d.frag.type !== 'main' && d.frag.type !== 'audio') return;
        segments.push({ t: Date.now(), track: d.frag.type, variant: d.frag.level, sn: d.frag.sn, url: d.frag.url,
          bytes: d.frag.stats ? d.frag.stats.loaded : null }); });
      // hls.js's own bandwidth sample and estimate after each main segment (abr-controller.ts onFragBuffered):
      // request start, first byte, last byte and parsed (ms, performance clock) and the estimate (bits/s).
      hls.on(Hls.Events.FRAG_BUFFERED, (_, d) => { const st = d.frag.stats; if (d.frag.type !== 'main' || !st) return;
        log('hls.fragBuffered', { sn: d.frag.sn, level: d.frag.level, bytes: st.loaded, bwEstimate: st.bwEstimate,
          loading: [st.loading.start, st.loading.first, st.loading.end], parsed: st.parsing.end,
          ttfbEstimate: hls.ttfbEstimate }); });
      hls.on(Hls.Events.LEVEL_SWITCHING, (_, d) => log('hls.levelSwitching', d.level));
      hls.on(Hls.Events.LEVEL_SWITCHED, (_, d) => log('hls.levelSwitched', d.level));
      hls.on(Hls.Events.ERROR, (_, d) => { log('hls.error', { type: d.type, details: d.details, fatal: d.fatal,
          reason: d.reason || null, error: d.error ? String(d.error) : null });
        if (d.fatal) finish('fatal ' + d.details); });
      hls.loadSource(src);
      hls.attachMedia(video);
    } else if (name === 'dashjs') {
      await load('/lib/dash.all.min.js');
      const player = dashjs.MediaPlayer().create();
      const E = dashjs.MediaPlayer.events;
      log('version', player.getVersion());
      player.on(E.FRAGMENT_LOADING_COMPLETED, (e) => { const r = e.request || {};
        if (r.type !== 'MediaSegment') return;
        segments.push({ t: Date.now(), track: r.mediaType, variant: r.representation ? r.representation.id : (r.representationId ?? null),
          sn: r.index, url: r.url, bytes: r.bytesLoaded ?? null }); });
      player.on(E.QUALITY_CHANGE_REQUESTED, (e) => log('dash.qualityChangeRequested', { mediaType: e.mediaType,
        old: e.oldRepresentation ? e.oldRepresentation.id : null, new: e.newRepresentation ? e.newRepresentation.id : null }));
      player.on(E.QUALITY_CHANGE_RENDERED, (e) => log('dash.qualityChangeRendered', { mediaType: e.mediaType,
        old: e.oldRepresentation ? e.oldRepresentation.id : null, new: e.newRepresentation ? e.newRepresentation.id : null }));
      player.on(E.PLAYBACK_WAITING, () => log('dash.playbackWaiting'));
      player.on(E.PLAYBACK_STALLED, () => log('dash.playbackStalled'));
      player.on(E.ERROR, (e) => { log('dash.error', flat(e.error || e, 2)); });
      player.initialize(video, src, true);
    } else if (name === 'shaka') {
      await load('/lib/shaka-player.compiled.js');
      shaka.polyfill.installAll();
      log('version', shaka.Player.version);
      const player = new shaka.Player(video);
      player.addEventListener('buffering', (e) => log('shaka.buffering', e.buffering));
      player.addEventListener('adaptation', () => { const v = player.getVariantTracks().find((t) => t.active);
        log('shaka.adaptation', v ? { id: v.id, bandwidth: v.bandwidth, height: v.height } : null); });
      player.addEventListener('variantchanged', () => log('shaka.variantchanged'));
      player.addEventListener('error', (e) => { log('shaka.error', flat(e.detail, 2)); });
      player.getNetworkingEngine().registerResponseFilter((type, response) => {
        if (type === shaka.net.NetworkingEngine.RequestType.SEGMENT)
          segments.push({ t: Date.now(), url: response.uri, bytes: response.data ? response.data.byteLength : null });
      });
      try { await player.load(src); } catch (e) { log('shaka.error', flat(e, 2)); finish('fatal load'); }
    } else {
      log('error', 'unknown player ' + name); finish('unknown player');
    }
    // Muted autoplay: the flag covers it; play() again in case the player attached late.
    video.play().catch((e) => log('play.rejected', String(e)));
  }
  start().catch((e) => { log('error', String(e)); finish('page error'); });
})();
