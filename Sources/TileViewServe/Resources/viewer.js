(function () {
  "use strict";
  const el = document.getElementById("tileview-viewport");
  const statusLine = document.getElementById("tileview-status");
  const canvas = document.createElement("canvas");
  canvas.setAttribute("aria-hidden", "true");
  el.appendChild(canvas);
  const ctx = canvas.getContext("2d");
  const kind = el.dataset.kind;
  const TILE = 256;
  const tv = (window.tileview = {
    state: null, page: null, answer: null, view: null, sent: [], busy: true, pending: 0, error: null, tileError: null,
    idle() { return !this.busy && this.pending === 0 && ops.length === 0 && !animation; }
  });
  let width = 0, height = 0, dpr = 1;
  const ops = [];
  let running = false;
  let animation = null;
  let dragShift = { x: 0, y: 0 };

  function fmt(v) { return String(Math.round(v * 1000) / 1000); }
  function show(text) { statusLine.textContent = text; }

  // ---- the server's API -------------------------------------------------------------------
  async function call(method, path, body) {
    const init = { method, headers: {} };
    if (body !== undefined) { init.headers["Content-Type"] = "application/json"; init.body = JSON.stringify(body); }
    const response = await fetch(path, init);
    const text = await response.text();
    return { status: response.status, ok: response.ok, text };
  }

  async function create() {
    width = el.clientWidth; height = el.clientHeight;
    dpr = window.devicePixelRatio || 1;
    canvas.width = Math.round(width * dpr); canvas.height = Math.round(height * dpr);
    canvas.style.width = width + "px"; canvas.style.height = height + "px";
    const body = { viewport: { width, height } };
    const linked = kind === "gallery" ? readLink() : null;
    const maxScale = parseFloat(el.dataset.maxScale);
    if (maxScale > 0) body.maxScale = maxScale;
    if (kind === "image" || kind === "scene") body.image = el.dataset.id;
    else {
      body.folder = el.dataset.folder;
      body.circular = el.dataset.circular === "1";
      body.peek = parseInt(el.dataset.peek || "0", 10) || 0;
      body.gap = parseInt(el.dataset.gap || "0", 10) || 0;
      if (el.dataset.start) body.start = el.dataset.start;
      if (linked.page) body.start = linked.page - 1;
    }
    if (tv.view) call("DELETE", "/api/views/" + tv.view);
    let r = await call("POST", "/api/views", body);
    if (r.status === 404 && linked && linked.page) {
      // A link to a page the folder no longer has opens the gallery where the page would start it.
      delete body.start;
      if (el.dataset.start) body.start = el.dataset.start;
      r = await call("POST", "/api/views", body);
    }
    if (!r.ok) { tv.error = r.text.trim(); show(tv.error); return; }
    accept(JSON.parse(r.text), null);
  }

  function accept(answer, op) {
    const before = tv.answer;
    setTimeout(() => { if (typeof updateDownload === "function") { updateDownload(); updateInfo(); } }, 0);
    tv.answer = answer; tv.view = answer.view; tv.state = answer.state;
    if (answer.kind === "gallery") tv.page = answer.page;
    tv.error = null;
    writeLink(answer);
    if (answer.kind === "gallery") {
      const p = answer.page;
      show((p.page || "") + " (" + (answer.pageIndex + 1) + " of " + answer.pages + ")");
      el.setAttribute("aria-label", p.page);
      markStrip(answer.pageIndex);
      if (slideshow.playing) slideshow.schedule();
    }
    if (op && (op.kind === "move" || op.kind === "drag") && before &&
        before.page && before.page.page !== answer.page.page) {
      slide(before, op);
    } else {
      draw();
    }
  }

  function describe(op) {
    switch (op.kind) {
      case "double-tap": return "double-tap " + fmt(op.x) + "," + fmt(op.y);
      case "two-finger-tap": return "two-finger-tap";
      case "pinch": return "pinch " + op.f.toPrecision(6).replace(/\.?0+$/, "") + " " + fmt(op.x) + "," + fmt(op.y);
      case "pan": return "pan " + fmt(op.dx) + "," + fmt(op.dy);
      case "zoom-to": return "zoom-to " + [op.x, op.y, op.w, op.h].map(fmt).join(",");
      case "move": return op.move;
      case "rotate": return "rotate " + op.degrees;
      case "linked-rect": {
        // A link's rect is in the upright image's pixels; the state it meets may be turned.
        const s = tv.state, r = s ? turnedRect(op, s.rotation || 0, uprightSize(s)) : op;
        return "zoom-to " + [r.x, r.y, r.width, r.height].map(fmt).join(",");
      }
      case "drag": return "drag " + fmt(op.dx) + "," + fmt(op.dy) + " velocity " + fmt(op.vx) + "," + fmt(op.vy);
    }
    return "";
  }

  function enqueue(op) {
    const last = ops[ops.length - 1];
    if (last && last.kind === "pan" && op.kind === "pan") { last.dx += op.dx; last.dy += op.dy; }
    else if (last && last.kind === "pinch" && op.kind === "pinch") { last.f *= op.f; last.x = op.x; last.y = op.y; }
    else ops.push(op);
    pump();
  }

  async function pump() {
    if (running || !tv.view) return;
    running = true; tv.busy = true;
    try {
      while (ops.length) {
        const op = ops.shift();
        const text = describe(op);
        const moves = op.kind === "move" || op.kind === "drag";
        const r = await call("POST", "/api/views/" + tv.view + (moves ? "/moves" : "/gestures"),
          moves ? { move: text } : { gesture: text });
        if (r.status === 404) {
          // The view is gone (idle too long, or the server that held it restarted): a new one, where the address
          // says this one was, then the steps queued behind it. The step that met the 404 is dropped.
          const restore = linkOps(null);
          tv.sent = []; tv.recreated = (tv.recreated || 0) + 1;
          await create();
          if (!tv.view || tv.error) { ops.length = 0; break; }
          ops.unshift(...restore);
          continue;
        }
        if (!r.ok) { tv.error = r.text.trim(); show(tv.error); continue; }
        tv.sent.push(text);
        dragShift = { x: 0, y: 0 };
        accept(JSON.parse(r.text), op);
      }
    } finally { running = false; tv.busy = false; }
  }

  // ---- drawing from IIIF tiles -----------------------------------------------------------
  const images = new Map();  // url -> {img, loaded, used}
  let clock = 0;
  // Tiles the server refused, and when: not asked for again for 5 s (a 503 passes, a 400 stays). The first
  // refusal's reason is shown (an image too large for the server's --work-mb says so, and what would do).
  const refused = new Map();
  function tileFailed(url) {
    refused.set(url, Date.now());
    if (refused.size > 1000) refused.delete(refused.keys().next().value);
    if (tv.tileError !== null) return;  // shown, or being asked for ("")
    tv.tileError = "";
    fetch(url).then((r) => (r.ok ? "" : r.text())).then((text) => {
      if (!text) { tv.tileError = null; return; }
      tv.tileError = text.trim();
      show(tv.tileError);
    }).catch(() => { tv.tileError = null; });
  }

  function image(url, request) {
    let entry = images.get(url);
    if (!entry) {
      if (!request || Date.now() - (refused.get(url) || 0) < 5000) return null;
      const img = new Image();
      entry = { img, loaded: false, used: 0 };
      img.onload = () => { entry.loaded = true; tv.pending = Math.max(0, tv.pending - 1); scheduleDraw(); };
      img.onerror = () => { images.delete(url); tv.pending = Math.max(0, tv.pending - 1); tileFailed(url); };
      img.src = url;
      tv.pending++;
      images.set(url, entry);
    }
    entry.used = ++clock;
    return entry;
  }

  // Images kept apart from the tiles (never trimmed while loading), each asked for once: a 404 is not asked
  // again. Each image's embedded preview (/api/images/ID/preview.jpg) and the navigator's whole image.
  const lasting = new Map();
  function lastingImage(url) {
    let entry = lasting.get(url);
    if (!entry) {
      const img = new Image();
      entry = { img, loaded: false };
      img.onload = () => { entry.loaded = true; scheduleDraw(); };
      img.src = url;
      lasting.set(url, entry);
      if (lasting.size > 64) lasting.delete(lasting.keys().next().value);
    }
    return entry;
  }
  function preview(id) { return lastingImage("/api/images/" + id + "/preview.jpg"); }

  function trimImages(needed) {
    for (const [url, entry] of images) {
      if (!entry.loaded && !needed.has(url)) {
        entry.img.onload = null; entry.img.onerror = null; entry.img.src = "";
        images.delete(url); tv.pending = Math.max(0, tv.pending - 1);
      }
    }
    if (images.size > 600) {
      const old = [...images.entries()].filter(([u, e]) => e.loaded && !needed.has(u))
        .sort((a, b) => a[1].used - b[1].used).slice(0, images.size - 500);
      for (const [url] of old) images.delete(url);
    }
  }

  let drawScheduled = false;
  function scheduleDraw() {
    if (drawScheduled) return;
    drawScheduled = true;
    requestAnimationFrame(() => { drawScheduled = false; if (!animation) draw(); });
  }

  function draw(answer, shift, needed) {
    answer = answer || tv.answer;
    if (!answer) return;
    const own = !needed;
    needed = needed || new Set();
    shift = shift || dragShift;
    if (own) {
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      ctx.fillStyle = "#000"; ctx.fillRect(0, 0, width, height);
    }
    for (const p of answer.placements) drawPlacement(p, shift, needed);
    if (answer.kind === "scene") drawFrame(answer, shift, needed);
    if (own) trimImages(needed);
    if (own && typeof drawNavigator === "function") drawNavigator();
  }

  // A scene has no IIIF tiles: its frame is the server's frame.png of the view's state (the last one shown stays
  // until the new one has come, moved with a drag).
  let lastFrame = null;
  function drawFrame(answer, shift, needed) {
    const url = "/api/views/" + answer.view + "/frame.png";
    needed.add(url);
    const entry = image(url, true);
    if (entry.loaded) lastFrame = entry;
    if (lastFrame) ctx.drawImage(lastFrame.img, shift.x, shift.y, width, height);
  }

  function levelSize(size, level) {
    const f = Math.pow(2, level);
    return { width: Math.ceil(size.width / f), height: Math.ceil(size.height / f) };
  }

  // A turned state (rotation 90, 180 or 270, clockwise) describes the turned image: its size and visible rect.
  // Tiles are the upright image's, asked for turned (IIIF rotation), and drawn where the turn puts them.
  function uprightSize(s) {
    const sideways = s.rotation === 90 || s.rotation === 270;
    return sideways ? { width: s.image.height, height: s.image.width } : { width: s.image.width, height: s.image.height };
  }
  // A rect of the upright image (size `up`) as the image turned by `rot` has it, and back.
  function turnedRect(r, rot, up) {
    const w = r.width, h = r.height;
    if (rot === 90) return { x: up.height - r.y - h, y: r.x, width: h, height: w };
    if (rot === 180) return { x: up.width - r.x - w, y: up.height - r.y - h, width: w, height: h };
    if (rot === 270) return { x: r.y, y: up.width - r.x - w, width: h, height: w };
    return { x: r.x, y: r.y, width: w, height: h };
  }
  function uprightRect(r, rot, up) {
    return turnedRect(r, (360 - rot) % 360, rot === 90 || rot === 270 ? { width: up.height, height: up.width } : up);
  }

  function drawPlacement(p, shift, needed) {
    const s = p.state, f = p.frame, scale = s.zoomScale, rot = s.rotation || 0;
    const W = s.image.width, H = s.image.height, up = uprightSize(s);
    const ox = f.x + s.imageFrame.x + shift.x, oy = f.y + s.imageFrame.y + shift.y;
    const base = "/iiif/3/" + p.id;
    ctx.save();
    ctx.beginPath(); ctx.rect(f.x + shift.x, f.y + shift.y, f.width, f.height); ctx.clip();
    ctx.imageSmoothingEnabled = true; ctx.imageSmoothingQuality = "high";
    // A small whole image first, then the tiles of coarser levels already here, then the level drawn.
    const small = base + "/full/!512,512/" + rot + "/default.jpg";
    needed.add(small);
    const whole = image(small, true);
    if (whole.loaded) {
      ctx.drawImage(whole.img, ox, oy, W * scale, H * scale);
    } else {
      // Until then, the preview the camera embedded in the file (served as stored, turned by its EXIF).
      const early = rot === 0 && preview(p.id);
      if (early && early.loaded) ctx.drawImage(early.img, ox, oy, W * scale, H * scale);
    }
    const maxLevel = Math.max(0, Math.ceil(Math.log2(Math.max(up.width, up.height) / TILE)));
    for (let level = Math.min(maxLevel, p.level + 2); level >= p.level; level--) {
      drawLevel(p, level, level === p.level, ox, oy, needed);
    }
    ctx.restore();
  }

  function drawLevel(p, level, request, ox, oy, needed) {
    const s = p.state, scale = s.zoomScale, rot = s.rotation || 0, up = uprightSize(s), W = up.width, H = up.height;
    const factor = Math.pow(2, level), span = TILE * factor;
    const size = levelSize(up, level);
    const v = uprightRect(s.visibleRect, rot, up);
    const c0 = Math.max(0, Math.floor(v.x / span)), r0 = Math.max(0, Math.floor(v.y / span));
    const c1 = Math.min(Math.ceil(size.width / TILE) - 1, Math.floor((v.x + v.width - 1e-9) / span));
    const r1 = Math.min(Math.ceil(size.height / TILE) - 1, Math.floor((v.y + v.height - 1e-9) / span));
    for (let r = r0; r <= r1; r++) {
      for (let c = c0; c <= c1; c++) {
        const x = c * span, y = r * span;
        const w = Math.min(span, W - x), h = Math.min(span, H - y);
        const tw = Math.min(TILE, size.width - c * TILE), th = Math.min(TILE, size.height - r * TILE);
        const url = "/iiif/3/" + p.id + "/" + x + "," + y + "," + w + "," + h + "/" + tw + "," + th + "/" + rot + "/default.jpg";
        if (request) needed.add(url);
        const entry = image(url, request);
        if (!entry || !entry.loaded) continue;
        const t = turnedRect({ x, y, width: w, height: h }, rot, up);
        const x0 = Math.round(ox + t.x * scale), y0 = Math.round(oy + t.y * scale);
        const x1 = Math.round(ox + (t.x + t.width) * scale), y1 = Math.round(oy + (t.y + t.height) * scale);
        ctx.drawImage(entry.img, x0, y0, x1 - x0, y1 - y0);
      }
    }
  }

  // A page change slides the old frame out and the new one in (eased, 250 ms), as a phone's viewer does.
  function slide(before, op) {
    const horizontal = !before.map || op.move === "left" || op.move === "right" || op.move === "next" ||
      op.move === "prev" || (op.kind === "drag" && Math.abs(op.dx) >= Math.abs(op.dy));
    const back = op.move === "prev" || op.move === "left" || op.move === "up" ||
      (op.kind === "drag" && (horizontal ? op.dx > 0 : op.dy > 0));
    const dir = back ? -1 : 1;
    const start = performance.now();
    const from = { x: dragShift.x, y: dragShift.y };
    const step = (now) => {
      const t = Math.min(1, (now - start) / 250);
      const e = t * t * (3 - 2 * t);
      const travel = horizontal ? width : height;
      const offset = (1 - e) * travel * dir;
      const oldShift = horizontal ? { x: from.x + offset - travel * dir, y: 0 } : { x: 0, y: from.y + offset - travel * dir };
      const newShift = horizontal ? { x: offset, y: 0 } : { x: 0, y: offset };
      const needed = new Set();
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      ctx.fillStyle = "#000"; ctx.fillRect(0, 0, width, height);
      draw(before, oldShift, needed);
      draw(tv.answer, newShift, needed);
      if (t < 1) { animation = requestAnimationFrame(step); }
      else { animation = null; draw(); }
    };
    animation = requestAnimationFrame(step);
  }

  // ---- input -------------------------------------------------------------------------------
  function point(event) {
    const r = el.getBoundingClientRect();
    return { x: event.clientX - r.left, y: event.clientY - r.top };
  }
  function zoomedIn() { return tv.state && tv.state.zoomScale > tv.state.minimumZoomScale + 1e-9; }

  // When the touch handlers last took a double tap (none yet: a quick first double click is not dropped).
  let lastTouchEnd = -Infinity;
  el.addEventListener("dblclick", (event) => {
    event.preventDefault();
    if (performance.now() - lastTouchEnd < 600) return;  // the touch handlers took it
    const p = point(event);
    enqueue(event.shiftKey ? { kind: "two-finger-tap" } : { kind: "double-tap", x: p.x, y: p.y });
  });

  el.addEventListener("wheel", (event) => {
    event.preventDefault();
    const unit = event.deltaMode === 1 ? 40 : event.deltaMode === 2 ? height : 1;
    const f = Math.exp(-event.deltaY * unit / 400);
    if (!isFinite(f) || f === 1) return;
    const p = point(event);
    enqueue({ kind: "pinch", f, x: p.x, y: p.y });
  }, { passive: false });

  // Pointers: one finger or the mouse drags; two fingers pinch, or tap together for a two-finger tap.
  const pointers = new Map();
  let drag = null, pinch = null, twoFinger = null, lastTap = null;
  el.addEventListener("pointerdown", (event) => {
    if (event.pointerType === "mouse" && event.button !== 0) return;
    el.focus();
    el.setPointerCapture(event.pointerId);
    pointers.set(event.pointerId, point(event));
    if (pointers.size === 1) {
      const p = point(event);
      drag = { start: p, last: p, samples: [{ t: performance.now(), p }], swipe: kind === "gallery" && !zoomedIn(), moved: false };
    } else if (pointers.size === 2) {
      drag = null;
      const [a, b] = [...pointers.values()];
      pinch = { distance: Math.hypot(a.x - b.x, a.y - b.y) };
      twoFinger = { t: performance.now(), moved: false };
    }
  });
  el.addEventListener("pointermove", (event) => {
    if (!pointers.has(event.pointerId)) return;
    const p = point(event);
    pointers.set(event.pointerId, p);
    if (pointers.size === 2 && pinch) {
      const [a, b] = [...pointers.values()];
      const d = Math.hypot(a.x - b.x, a.y - b.y);
      if (pinch.distance > 0 && Math.abs(d / pinch.distance - 1) > 0.02) {
        enqueue({ kind: "pinch", f: d / pinch.distance, x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 });
        pinch.distance = d;
        if (twoFinger) twoFinger.moved = true;
      }
      return;
    }
    if (!drag) return;
    const dx = p.x - drag.last.x, dy = p.y - drag.last.y;
    if (Math.hypot(p.x - drag.start.x, p.y - drag.start.y) > 4) drag.moved = true;
    drag.last = p;
    drag.samples.push({ t: performance.now(), p });
    if (drag.samples.length > 8) drag.samples.shift();
    if (!drag.moved) return;
    if (drag.swipe) { dragShift = { x: p.x - drag.start.x, y: (tv.answer && tv.answer.map) ? p.y - drag.start.y : 0 }; scheduleDraw(); }
    else enqueue({ kind: "pan", dx, dy });
  });
  function release(event) {
    if (!pointers.has(event.pointerId)) return;
    const p = point(event);
    pointers.delete(event.pointerId);
    const now = performance.now();
    if (twoFinger && pointers.size === 0) {
      if (!twoFinger.moved && now - twoFinger.t < 350) enqueue({ kind: "two-finger-tap" });
      twoFinger = null; pinch = null; lastTouchEnd = now;
      return;
    }
    if (pointers.size > 0) return;
    if (drag && drag.moved && drag.swipe) {
      const first = drag.samples[0], ms = Math.max(1, now - first.t);
      const vx = -(p.x - first.p.x) / ms, vy = -(p.y - first.p.y) / ms;
      enqueue({ kind: "drag", dx: p.x - drag.start.x, dy: p.y - drag.start.y, vx, vy });
    } else if (drag && !drag.moved && event.pointerType === "touch") {
      if (lastTap && now - lastTap.t < 350 && Math.hypot(p.x - lastTap.p.x, p.y - lastTap.p.y) < 30) {
        enqueue({ kind: "double-tap", x: p.x, y: p.y });
        lastTap = null;
      } else lastTap = { t: now, p };
      lastTouchEnd = now;
    }
    drag = null;
  }
  el.addEventListener("pointerup", release);
  el.addEventListener("pointercancel", release);

  // The whole image in view (zoom-to of the image: the engine clamps it to the fit).
  function fitOp() {
    const s = tv.state;
    return s ? { kind: "zoom-to", x: 0, y: 0, w: s.image.width, h: s.image.height } : null;
  }
  // One image pixel per screen pixel about the centre of what is shown: zoom-to of the viewport-sized rect there.
  function oneToOneOp() {
    const s = tv.state;
    if (!s) return null;
    const v = s.visibleRect, cx = v.x + v.width / 2, cy = v.y + v.height / 2;
    return { kind: "zoom-to", x: cx - width / 2, y: cy - height / 2, w: width, h: height };
  }

  // Keys work on the whole page, not only while the viewer has the focus (a field being typed in keeps them).
  document.addEventListener("keydown", (event) => {
    if (event.target && event.target.closest && event.target.closest("input, textarea, select, [contenteditable]")) return;
    if (event.ctrlKey || event.metaKey) return;
    const map = tv.answer && tv.answer.map;
    let op = null;
    if (kind === "gallery") {
      const moves = map ? { ArrowRight: "right", ArrowLeft: "left", ArrowUp: "up", ArrowDown: "down" }
        : { ArrowRight: "next", ArrowLeft: "prev", PageDown: "next", PageUp: "prev" };
      if (moves[event.key] && !(zoomedIn() && event.key.startsWith("Arrow") && event.altKey)) op = { kind: "move", move: moves[event.key] };
    } else {
      const pans = { ArrowRight: [-40, 0], ArrowLeft: [40, 0], ArrowUp: [0, 40], ArrowDown: [0, -40] };
      if (pans[event.key]) op = { kind: "pan", dx: pans[event.key][0], dy: pans[event.key][1] };
    }
    if (kind === "gallery" && tv.answer && (event.key === "Home" || event.key === "End")) {
      op = { kind: "move", move: "goto " + (event.key === "Home" ? 1 : tv.answer.pages) };
    }
    if (kind === "gallery" && event.key === " ") { slideshow.toggle(); event.preventDefault(); return; }
    if (event.key === "?") { toggleHelp(); event.preventDefault(); return; }
    if (event.key === "Escape" && help && !help.hidden) { toggleHelp(); event.preventDefault(); return; }
    if (event.key === "r") op = { kind: "rotate", degrees: 90 };
    if (event.key === "R") op = { kind: "rotate", degrees: -90 };
    if (event.key === "+" || event.key === "=") op = { kind: "pinch", f: 1.25, x: width / 2, y: height / 2 };
    if (event.key === "-") op = { kind: "pinch", f: 0.8, x: width / 2, y: height / 2 };
    if (event.key === "0") op = fitOp();
    if (event.key === "1") op = oneToOneOp();
    if (event.key === "Escape" && zoomedIn()) op = fitOp();
    if (event.key === "f") { toggleFullscreen(); event.preventDefault(); return; }
    if (event.key === "i") { toggleInfo(); event.preventDefault(); return; }
    if (event.key === "c") { copyLink(); event.preventDefault(); return; }
    if (op) { event.preventDefault(); enqueue(op); }
  });

  // The address carries the view: #xywh=X,Y,W,H (the rect shown, in the upright image's pixels, whole), &rot=R
  // (its turn, clockwise) and, in a gallery, page=N (from 1; the rect only while zoomed in), so it can be shared
  // and reopened. A gallery's new page is a history entry (back and forward step through pages); anything else
  // replaces the current entry, never one entry per gesture.
  let lastHash = null;
  function linkOf(answer) {
    const s = answer.state, parts = [];
    if (answer.kind === "gallery") parts.push("page=" + (answer.pageIndex + 1));
    if (answer.kind !== "gallery" || s.zoomScale > s.minimumZoomScale + 1e-9) {
      const r = uprightRect(s.visibleRect, s.rotation || 0, uprightSize(s));
      parts.push("xywh=" + [r.x, r.y, r.width, r.height].map((n) => Math.round(n)).join(","));
    }
    if (s.rotation) parts.push("rot=" + s.rotation);
    return "#" + parts.join("&");
  }
  function writeLink(answer) {
    if (!answer || !answer.state) return;
    const hash = linkOf(answer);
    const shownPage = readLink().page;
    const newPage = answer.kind === "gallery" && shownPage && shownPage !== answer.pageIndex + 1;
    if (hash !== location.hash) {
      const url = location.pathname + location.search + hash;
      if (newPage) history.pushState(null, "", url); else history.replaceState(null, "", url);
    }
    lastHash = location.hash;
    tv.link = location.href;
  }
  // What the address asks for: {page, rect, rot}, each absent when not given (or not a valid value).
  function readLink() {
    const fields = {};
    for (const part of location.hash.replace(/^#/, "").split("&")) {
      const eq = part.indexOf("=");
      if (eq > 0) fields[part.slice(0, eq)] = part.slice(eq + 1);
    }
    const link = {};
    const page = Number(fields.page);
    if (Number.isInteger(page) && page >= 1) link.page = page;
    const rect = (fields.xywh || "").split(",").map(Number);
    if (rect.length === 4 && rect.every(Number.isFinite) && rect[2] > 0 && rect[3] > 0) {
      link.rect = { x: rect[0], y: rect[1], width: rect[2], height: rect[3] };
    }
    const rot = Number(fields.rot);
    if ([90, 180, 270].includes(rot)) link.rot = rot;
    return link;
  }
  // The steps that take the view from `current` (an answer, or null before the first) to what the address asks:
  // the page (goto), the turn, then the rect (a zoom-to, resolved against the state it is sent to).
  function linkOps(current) {
    const link = readLink(), ops = [];
    if (kind === "gallery" && current && link.page && link.page !== current.pageIndex + 1) {
      ops.push({ kind: "move", move: "goto " + link.page });
    }
    const turn = ((link.rot || 0) - ((current && current.state.rotation) || 0) + 360) % 360;
    if (turn) ops.push({ kind: "rotate", degrees: turn === 270 ? -90 : turn });
    if (link.rect) ops.push(Object.assign({ kind: "linked-rect" }, link.rect));
    return ops;
  }
  async function copyLink() {
    try {
      await navigator.clipboard.writeText(location.href);
      show("link copied");
    } catch (error) {
      show(location.href);  // no clipboard here: the link is shown to copy by hand
    }
  }

  // ---- the navigator: the whole image, and the rect the view shows (while zoomed in) --------------------
  const nav = document.getElementById("tileview-navigator");
  const navCtx = nav && nav.getContext("2d");
  const NAV_SIDE = 160;
  let navScale = 0;
  function drawNavigator() {
    const s = tv.state, id = shownId();
    if (!nav || !s || !id) return;
    nav.hidden = !zoomedIn();
    if (nav.hidden) { tv.navigator = null; return; }
    const W = s.image.width, H = s.image.height;
    navScale = Math.min(NAV_SIDE / W, NAV_SIDE / H);
    const w = Math.max(1, Math.round(W * navScale)), h = Math.max(1, Math.round(H * navScale));
    if (nav.width !== w * dpr || nav.height !== h * dpr) {
      nav.width = w * dpr; nav.height = h * dpr;
      nav.style.width = w + "px"; nav.style.height = h + "px";
    }
    navCtx.setTransform(dpr, 0, 0, dpr, 0, 0);
    navCtx.fillStyle = "#111"; navCtx.fillRect(0, 0, w, h);
    const whole = lastingImage("/iiif/3/" + id + "/full/!" + NAV_SIDE + "," + NAV_SIDE + "/" + (s.rotation || 0) + "/default.jpg");
    if (whole.loaded) navCtx.drawImage(whole.img, 0, 0, w, h);
    const v = s.visibleRect;
    const r = { x: v.x * navScale, y: v.y * navScale, w: v.width * navScale, h: v.height * navScale };
    navCtx.strokeStyle = "#9cf"; navCtx.lineWidth = 2;
    navCtx.strokeRect(r.x, r.y, r.w, r.h);
    tv.navigator = r;
  }
  if (nav) {
    // A click moves the view there: the same rect size, centred on the point (a zoom-to).
    nav.addEventListener("click", (event) => {
      const s = tv.state;
      if (!s || !navScale) return;
      const b = nav.getBoundingClientRect();
      const x = (event.clientX - b.left) / navScale, y = (event.clientY - b.top) / navScale;
      const v = s.visibleRect;
      enqueue({ kind: "zoom-to", x: x - v.width / 2, y: y - v.height / 2, w: v.width, h: v.height });
    });
  }

  // ---- the toolbar ------------------------------------------------------------------------------
  const toolbar = document.getElementById("tileview-toolbar");
  const download = toolbar && toolbar.querySelector("[data-action=download]");
  // The image shown: the view's, or the gallery's current page.
  function shownId() {
    if (kind === "image") return el.dataset.id;
    const placements = (tv.answer && tv.answer.placements) || [];
    const name = tv.answer && tv.answer.page && tv.answer.page.page;
    const current = placements.find((p) => p.name === name) || placements[0];
    return current ? current.id : null;
  }
  function updateDownload() {
    const id = shownId();
    if (download && id) {
      download.href = "/api/images/" + id + "/file";
      download.setAttribute("download", decodeURIComponent(id).split("/").pop());
    }
  }
  // The information panel: the image's description and EXIF (/api/images/ID/info), for the image shown.
  const infoPanel = document.getElementById("tileview-info");
  let infoShown = null;
  async function updateInfo() {
    const id = shownId();
    if (!infoPanel || infoPanel.hidden || !id || id === infoShown) return;
    infoShown = id;
    const r = await fetch("/api/images/" + id + "/info");
    if (!r.ok || id !== shownId()) return;
    const info = await r.json();
    const e = info.exif || {};
    const rows = [
      ["Name", info.file], ["Size", info.orientedWidth + " × " + info.orientedHeight + " pixels"],
      ["Format", info.format.toUpperCase() + (info.compression ? " (" + info.compression + ")" : "")],
      ["Colour", info.color], ["Camera", e.camera], ["Lens", e.lens], ["Exposure", e.exposure],
      ["Aperture", e.fNumber ? "f/" + e.fNumber : null], ["ISO", e.iso], ["Focal length", e.focalLength ? e.focalLength + " mm" : null],
      ["Taken", e.taken], ["Location", e.latitude != null && e.longitude != null ? e.latitude + ", " + e.longitude : null],
    ];
    const list = infoPanel.querySelector("dl");
    list.textContent = "";
    for (const [term, value] of rows) {
      if (value == null || value === "") continue;
      const dt = document.createElement("dt"), dd = document.createElement("dd");
      dt.textContent = term; dd.textContent = String(value);
      dt.dataset.field = term.toLowerCase();
      list.append(dt, dd);
    }
  }
  function toggleInfo() {
    if (!infoPanel) return;
    infoPanel.hidden = !infoPanel.hidden;
    infoShown = null;
    updateInfo();
  }
  function toggleFullscreen() {
    if (document.fullscreenElement) document.exitFullscreen();
    else if (document.documentElement.requestFullscreen) document.documentElement.requestFullscreen();
  }
  if (toolbar) {
    toolbar.addEventListener("click", (event) => {
      const button = event.target.closest("[data-action]");
      if (!button) return;
      const action = button.dataset.action;
      let op = null;
      if (action === "zoom-in") op = { kind: "pinch", f: 1.5, x: width / 2, y: height / 2 };
      if (action === "zoom-out") op = { kind: "pinch", f: 1 / 1.5, x: width / 2, y: height / 2 };
      if (action === "fit") op = fitOp();
      if (action === "one-to-one") op = oneToOneOp();
      if (action === "rotate") op = { kind: "rotate", degrees: 90 };
      if (action === "slideshow") slideshow.toggle();
      if (action === "help") toggleHelp();
      if (action === "fullscreen") toggleFullscreen();
      if (action === "info") toggleInfo();
      if (action === "copy-link") copyLink();
      if (action === "download") { updateDownload(); return; }  // the link itself downloads
      if (op) { event.preventDefault(); enqueue(op); }
    });
    // The controls (toolbar, strip) fade after 2.5 s without the pointer moving or a key, the photo first (never
    // one that has the focus or the pointer).
    let idleTimer = null;
    const wake = () => {
      document.body.classList.remove("idle");
      clearTimeout(idleTimer);
      idleTimer = setTimeout(() => document.body.classList.add("idle"), 2500);
    };
    ["pointermove", "pointerdown", "keydown"].forEach((type) => document.addEventListener(type, wake));
    wake();
  }

  // ---- the thumbnail strip (galleries): a click is the move goto N --------------------------------------
  const strip = document.getElementById("tileview-strip");
  // A strip its page does not fill (a folder too large to list there) holds the pages around the one shown,
  // asked for from the view (GET /api/views/{vid}/pages) whenever the page shown nears the edge of those it holds.
  const lazyStrip = !!strip && strip.dataset.lazy === "1";
  const stripSide = 60;
  let stripHeld = null, stripAsking = false;
  async function fillStrip(index) {
    if (stripAsking || !tv.view) return;
    if (stripHeld) {
      const [low, high, total] = stripHeld;
      const nearLow = index < low + 10 && low > 0, nearHigh = index >= high - 10 && high < total;
      if (index >= low && index < high && !nearLow && !nearHigh) return;
    }
    stripAsking = true;
    try {
      const from = Math.max(0, index - stripSide);
      const r = await call("GET", "/api/views/" + tv.view + "/pages?from=" + from + "&count=" + (2 * stripSide + 1));
      if (!r.ok) return;
      const list = JSON.parse(r.text);
      strip.replaceChildren(...list.ids.map((id, k) => {
        const button = document.createElement("button");
        const number = list.from + k + 1;
        button.type = "button"; button.dataset.page = String(number);
        button.setAttribute("aria-label", number + ": " + list.names[k]); button.title = list.names[k];
        const img = document.createElement("img");
        img.loading = "lazy"; img.alt = ""; img.src = "/iiif/3/" + id + "/full/!96,96/0/default.jpg";
        button.appendChild(img);
        return button;
      }));
      stripHeld = [list.from, list.from + list.ids.length, list.total];
    } finally { stripAsking = false; }
    if (tv.answer && tv.answer.kind === "gallery") markStrip(tv.answer.pageIndex);
  }
  function markStrip(index) {
    if (!strip) return;
    if (lazyStrip) fillStrip(index);
    const previous = strip.querySelector("[aria-current]");
    if (previous) previous.removeAttribute("aria-current");
    const current = strip.querySelector('[data-page="' + (index + 1) + '"]');
    if (!current) return;
    current.setAttribute("aria-current", "true");
    const b = current.getBoundingClientRect(), sb = strip.getBoundingClientRect();
    if (b.left < sb.left || b.right > sb.right) strip.scrollLeft += b.left - sb.left - (sb.width - b.width) / 2;
  }
  if (strip) {
    strip.addEventListener("click", (event) => {
      const button = event.target.closest("[data-page]");
      if (button) enqueue({ kind: "move", move: "goto " + button.dataset.page });
    });
  }

  // ---- the slideshow (galleries): next every interval; stops at the last page unless the gallery is circular --
  const intervalChoice = toolbar && toolbar.querySelector("[data-setting=interval]");
  const slideshow = {
    playing: false, timer: null,
    seconds() {
      const chosen = parseFloat(intervalChoice ? intervalChoice.value : el.dataset.interval);
      return chosen >= 0.5 && chosen <= 600 ? chosen : 4;
    },
    toggle() { this.playing ? this.stop() : this.play(); },
    play() {
      if (kind !== "gallery" || !tv.answer) return;
      this.playing = true; tv.slideshow = true;
      this.button(true);
      this.schedule();
    },
    stop() {
      this.playing = false; tv.slideshow = false;
      clearTimeout(this.timer); this.timer = null;
      this.button(false);
    },
    // The next step after the interval, counted from the page shown; at the end of a linear gallery it stops.
    schedule() {
      clearTimeout(this.timer);
      const a = tv.answer;
      if (a && el.dataset.circular !== "1" && a.pageIndex + 1 >= a.pages) { this.stop(); return; }
      this.timer = setTimeout(() => { if (this.playing) enqueue({ kind: "move", move: "next" }); }, this.seconds() * 1000);
    },
    button(on) {
      const b = toolbar && toolbar.querySelector("[data-action=slideshow]");
      if (b) { b.setAttribute("aria-pressed", String(on)); b.setAttribute("aria-label", on ? "Pause the slideshow" : "Play a slideshow"); }
    },
  };
  if (intervalChoice) {
    if (el.dataset.interval) {
      const wanted = String(parseFloat(el.dataset.interval));
      if (![...intervalChoice.options].some((o) => o.value === wanted)) intervalChoice.add(new Option(wanted + " s", wanted, true, true));
      intervalChoice.value = wanted;
    }
    intervalChoice.addEventListener("change", () => { if (slideshow.playing) slideshow.schedule(); });
  }
  // Every answer while playing restarts the interval (accept schedules it): a page chosen by hand is shown in full.

  // ---- the help overlay (?) --------------------------------------------------------------------------
  const help = document.getElementById("tileview-help");
  function toggleHelp() {
    if (!help) return;
    help.hidden = !help.hidden;
    if (!help.hidden) { const close = help.querySelector("button"); if (close) close.focus(); }
    else el.focus();
  }
  if (help) help.addEventListener("click", (event) => { if (event.target === help || event.target.closest("button")) toggleHelp(); });

  let resizeTimer = null;
  window.addEventListener("resize", () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => {
      if (el.clientWidth !== width || el.clientHeight !== height) { ops.length = 0; tv.sent = []; create(); }
    }, 200);
  });
  window.addEventListener("pagehide", () => {
    if (tv.view) fetch("/api/views/" + tv.view, { method: "DELETE", keepalive: true });
  });

  el.focus();
  // A deep link opens what it names, queued before any other input (a gallery starts on its page); a link pasted
  // into the address of an open page, and the browser's back and forward, are followed the same way.
  ops.push(...linkOps(null));
  function followLink() {
    if (location.hash === lastHash) return;
    lastHash = location.hash;
    for (const op of linkOps(tv.answer)) enqueue(op);
  }
  window.addEventListener("hashchange", followLink);
  window.addEventListener("popstate", followLink);
  create().finally(() => { tv.busy = false; pump(); });
})();
