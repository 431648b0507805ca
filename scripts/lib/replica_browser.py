"""The viewer through nginx in front of two replicas, with the replica that holds the view killed mid-session
(scripts/test-replicas.sh runs it; the checks are browser_test.py's).

usage: replica_browser.py TILEVIEW ROOT BASE_URL LOG_A PID_A LOG_B PID_B

Chromium opens an image through nginx and double-clicks; the state equals `tileview zoom`'s. The replica whose
access log has the view is killed (SIGKILL). The next key press goes to the other replica (nginx moves the
client there), meets a 404 for the view it never had, and the page makes a new view there, where its address
says the old one was; a double click after it again equals the command's state for the steps the new view got.
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
        view, before = driver.execute_script("return [window.tileview.view, window.tileview.state.visibleRect]")
        holder = [r for r, log in logs.items() if f"/api/views/{view}" in open(log).read()]
        if not bt.check(len(holder) == 1, "the view lives on one replica", str(holder)):
            return len(bt.failures)
        other = "b" if holder[0] == "a" else "a"
        os.kill(pids[holder[0]], signal.SIGKILL)
        # Dead once the kernel has made it a zombie (its parent, the shell script, reaps it later): its listening
        # socket is closed then.
        for _ in range(100):
            try:
                with open(f"/proc/{pids[holder[0]]}/status") as status:
                    if any(line.startswith("State:") and "Z" in line for line in status):
                        break
            except FileNotFoundError:
                break
            time.sleep(0.05)
        print(f"killed replica {holder[0]} (SIGKILL), which held view {view}")
        ActionChains(driver).send_keys("+").perform()
        bt.wait_idle(driver)
        after = driver.execute_script(
            "return [window.tileview.view, window.tileview.state.visibleRect, window.tileview.recreated]")
        moved = f"/api/views/{after[0]}" in open(logs[other]).read()
        bt.check(after[0] != view and after[2] == 1 and moved and
                 all(abs(after[1][k] - before[k]) <= 2 for k in ["x", "y", "width", "height"]),
                 f"the session goes on through replica {other}, where it was", f"{before} -> {after[1]}")
        sent = bt.double_click(driver, 300, 200)
        bt.replay(driver, tileview, path, w, h, sent, "after the failover a double click gives the command's state")
    finally:
        driver.quit()
    print(f"replica browser: {len(bt.failures)} failed")
    return len(bt.failures)


if __name__ == "__main__":
    sys.exit(main())
