"""The viewer through nginx in front of two replicas, with a replica killed mid-session (scripts/test-replicas.sh
runs it; the checks are browser_test.py's).

usage: replica_browser.py TILEVIEW ROOT BASE_URL LOG_A PID_A LOG_B PID_B

Chromium opens an image through nginx and double-clicks; the state equals `tileview zoom`'s, and the view's
requests went to both replicas (round robin: each rebuilds the view from the token the other answered with).
Replica a is killed (SIGKILL). The next key press goes to replica b, which goes on from the page's token: no new
view is made, and the state equals the command's for every step the page sent, before the kill and after.
Exit status: the number of failed checks.
"""

import os
import signal
import sys
import time

from selenium.webdriver.common.action_chains import ActionChains

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser_test as bt  # noqa: E402


def main():
    tileview, root, base = sys.argv[1], sys.argv[2], sys.argv[3].rstrip("/")
    logs = {"a": sys.argv[4], "b": sys.argv[6]}
    pids = {"a": int(sys.argv[5]), "b": int(sys.argv[7])}
    driver = bt.chromium()
    try:
        name = "hubble_deep_field.jpg"
        path = os.path.join(root, name)
        driver.get(f"{base}/view/{name}")
        bt.wait_idle(driver)
        w, h = driver.execute_script(
            "const e = document.getElementById('tileview-viewport'); return [e.clientWidth, e.clientHeight]")
        sent = bt.double_click(driver, 120, 80)
        bt.replay(driver, tileview, path, w, h, sent, "through nginx: a double click gives the command's state")
        view_lines = {r: open(log).read().count("/api/views") for r, log in logs.items()}
        bt.check(all(n > 0 for n in view_lines.values()), "the view's requests went to both replicas",
                 str(view_lines))
        os.kill(pids["a"], signal.SIGKILL)
        # Dead once the kernel has made it a zombie (its parent, the shell script, reaps it later): its listening
        # socket is closed then.
        for _ in range(100):
            try:
                with open(f"/proc/{pids['a']}/status") as status:
                    if any(line.startswith("State:") and "Z" in line for line in status):
                        break
            except FileNotFoundError:
                break
            time.sleep(0.05)
        print("killed replica a (SIGKILL)")
        b_before = open(logs["b"]).read().count("/api/views")
        ActionChains(driver).send_keys("+").perform()
        bt.wait_idle(driver)
        sent, recreated, error = driver.execute_script(
            "return [window.tileview.sent, window.tileview.recreated || 0, window.tileview.error]")
        b_after = open(logs["b"]).read().count("/api/views")
        bt.check(recreated == 0 and error is None and b_after > b_before and len(sent) > 1,
                 "the session goes on through replica b from the page's token, no new view made",
                 f"recreated {recreated}, error {error}, b's view requests {b_before} -> {b_after}, sent {sent}")
        bt.replay(driver, tileview, path, w, h, sent, "after the kill, the state is the command's for every step sent")
        sent = bt.double_click(driver, 300, 200)
        bt.replay(driver, tileview, path, w, h, sent, "after the failover a double click gives the command's state")
    finally:
        driver.quit()
    print(f"replica browser: {len(bt.failures)} failed")
    return len(bt.failures)


if __name__ == "__main__":
    sys.exit(main())
