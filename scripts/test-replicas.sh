#!/usr/bin/env bash
# More than one server, with the recipes under deploy/ (docs/serving.md, "More than one server"):
# - nginx (Debian's, installed when missing) runs deploy/nginx/tileview.conf as written, its two upstream ports
#   and cache folder replaced, in front of two real `tileview serve` replicas of the sample images sharing one
#   --cache-dir: IIIF tiles spread over both replicas (their access logs), repeated tiles come from nginx's
#   cache (X-Cache-Status: HIT, no new line in either log), a view's steps go round robin to both replicas and
#   its frame.png is `tileview zoom`'s, with one replica killed (SIGKILL) every tile is still answered, the
#   restarted replica serves again, and after a rolling restart of both the view goes on. Then Chromium through
#   nginx (scripts/lib/replica_browser.py): a replica is killed mid-session, and the session goes on through the
#   other without making a new view.
# - systemd: deploy/systemd/tileview-serve@.service passes `systemd-analyze verify` with nothing to say, and
#   keeps its hardening.
# - Kubernetes: deploy/kubernetes/tileview-serve.yaml passes kubernetes-validate --strict and
#   scripts/lib/k8s_serve.py, and its container's arguments start a server that answers its probes.
# Exit 0 when every check passes. TILEVIEW names the binary (default .build/debug/tileview).
set -euo pipefail
cd "$(dirname "$0")/.."
tv=$(realpath "${TILEVIEW:-.build/debug/tileview}")
scripts/ensure-deps.sh replicas cluster browser
failures=0
ok() { echo "ok: $*"; }
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
  [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$work/root" "$work/cache" "$work/nginx-cache" "$work/nginx-temp"
for f in SampleImages/*.png SampleImages/*.jpg; do cp "$f" "$work/root/"; done

# Replica $1 (a or b) on port $2 (more arguments after): its pid in replica_$1, its log in $work/$1.log (appended, so a restart keeps
# the lines before).
start_replica() {
  "$tv" serve "$work/root" --port "$2" --cache-dir "$work/cache" "${@:3}" 2>>"$work/$1.log" &
  local pid=$!
  disown "$pid"  # killed on purpose below: no job notice
  pids+=("$pid")
  eval "replica_$1=$pid"
  for _ in $(seq 1 100); do curl -s -o /dev/null "http://127.0.0.1:$2/healthz" && return 0; sleep 0.1; done
  fail "replica $1 did not start"; cat "$work/$1.log"
}
port_a=$(free_port)
port_b=$(free_port)
port_n=$(free_port)
start_replica a "$port_a"
start_replica b "$port_b"

# The recipe as written, with this run's ports and folders.
sed -e "s/127.0.0.1:8081/127.0.0.1:$port_a/g" -e "s/127.0.0.1:8082/127.0.0.1:$port_b/g" \
  -e "s|/var/cache/nginx/tileview|$work/nginx-cache|" -e "s/listen 80;/listen 127.0.0.1:$port_n;/" \
  deploy/nginx/tileview.conf > "$work/tileview.conf"
user_line=""
[ "$(id -u)" -eq 0 ] && user_line="user root;"
cat > "$work/nginx.conf" <<CONF
$user_line
worker_processes 1;
pid $work/nginx.pid;
error_log $work/nginx-error.log;
events { worker_connections 256; }
http {
    access_log $work/nginx-access.log;
    client_body_temp_path $work/nginx-temp/body;
    proxy_temp_path $work/nginx-temp/proxy;
    fastcgi_temp_path $work/nginx-temp/fastcgi;
    uwsgi_temp_path $work/nginx-temp/uwsgi;
    scgi_temp_path $work/nginx-temp/scgi;
    include $work/tileview.conf;
}
CONF
nginx_bin=$(command -v nginx || echo /usr/sbin/nginx)
"$nginx_bin" -t -c "$work/nginx.conf" -e "$work/nginx-error.log" 2>"$work/nginx-t.log" \
  && ok "nginx -t accepts deploy/nginx/tileview.conf" || { fail "nginx -t: $(cat "$work/nginx-t.log")"; exit 1; }
"$nginx_bin" -c "$work/nginx.conf" -e "$work/nginx-error.log"
for _ in $(seq 1 50); do curl -s -o /dev/null "http://127.0.0.1:$port_n/healthz" && break; sleep 0.1; done
base="http://127.0.0.1:$port_n"

# Tiles: 24 distinct level-0 tiles of three images, twice.
tiles=()
for image in hubble_deep_field.jpg coffee.png astronaut.png; do
  for x in 0 256; do for y in 0 256; do for s in 256 128; do
    tiles+=("/iiif/3/$image/$x,$y,256,256/$s,/0/default.jpg")
  done; done; done
done
log_lines() { grep -c "GET /iiif/3/" "$work/$1.log" || true; }
statuses=""
for t in "${tiles[@]}"; do
  statuses+=$(curl -s -o /dev/null -w "%{http_code}:%header{x-cache-status} " "$base$t")
done
first_a=$(log_lines a)
first_b=$(log_lines b)
[ "$(echo "$statuses" | tr ' ' '\n' | grep -c '^200:MISS$')" -eq ${#tiles[@]} ] \
  && ok "${#tiles[@]} distinct tiles through nginx: 200, each a cache MISS" || fail "first pass: $statuses"
[ "$first_a" -gt 0 ] && [ "$first_b" -gt 0 ] && [ $((first_a + first_b)) -eq ${#tiles[@]} ] \
  && ok "round robin: replica a answered $first_a tiles, replica b $first_b" \
  || fail "tiles per replica: a $first_a, b $first_b of ${#tiles[@]}"
statuses=""
for t in "${tiles[@]}"; do
  statuses+=$(curl -s -o /dev/null -w "%{http_code}:%header{x-cache-status} " "$base$t")
done
hits=$(echo "$statuses" | tr ' ' '\n' | grep -c '^200:HIT$' || true)
[ "$hits" -eq ${#tiles[@]} ] && [ "$(log_lines a)" -eq "$first_a" ] && [ "$(log_lines b)" -eq "$first_b" ] \
  && ok "the same tiles again: $hits of ${#tiles[@]} from nginx's cache (hit rate 100%), no request reached a replica" \
  || fail "second pass: $hits hits; replica lines a $(log_lines a) b $(log_lines b)"

# A view through nginx, round robin: its steps land on both replicas (each rebuilds it from the token the
# other answered with), and its frame is the command's. `step` follows each answer's token.
view_lines() { grep -c "/api/views" "$work/$1.log" || true; }
token() { python3 -c 'import json, sys; print(json.load(sys.stdin)["view"])'; }
step() {
  curl -s -H 'Content-Type: application/json' -d "{\"gesture\":\"$1\"}" "$base/api/views/$view/gestures" | token
}
gestures=("double-tap 100,80" "pinch 1.5 160,120" "pan -40,10" "double-tap 30,200")
cli_frame() {
  local args=()
  for g in "${gestures[@]:0:$1}"; do args+=(--gesture "$g"); done
  "$tv" zoom "$work/root/rocket.jpg" --viewport 320x240 "${args[@]}" -o "$2"
}
views_a=$(view_lines a)
views_b=$(view_lines b)
view=$(curl -s -H 'Content-Type: application/json' -d '{"image":"rocket.jpg","viewport":{"width":320,"height":240}}' \
  "$base/api/views" | token)
first_token=$view
for g in "${gestures[@]:0:3}"; do view=$(step "$g"); done
curl -s -o "$work/frame.png" "$base/api/views/$view/frame.png"
cli_frame 3 "$work/cli.png"
on_a=$(($(view_lines a) - views_a))
on_b=$(($(view_lines b) - views_b))
cmp -s "$work/frame.png" "$work/cli.png" && [ "$on_a" -gt 0 ] && [ "$on_b" -gt 0 ] \
  && ok "a view's 5 requests go round robin (replica a $on_a, b $on_b) and its frame is tileview zoom's" \
  || fail "view: frame equal $(cmp -s "$work/frame.png" "$work/cli.png" && echo yes || echo no), a $on_a, b $on_b"
echo "token sizes: a new image view ${#first_token} characters, after three gestures ${#view}"

# One replica killed: every tile is still answered (new tiles, so nginx's cache cannot hide the loss).
kill -9 "$replica_a"
while kill -0 "$replica_a" 2>/dev/null; do sleep 0.05; done
statuses=""
b_before=$(log_lines b)
for image in retina.jpg chelsea.png; do
  for x in 0 128; do for y in 0 128; do
    statuses+=$(curl -s -o /dev/null -w "%{http_code} " "$base/iiif/3/$image/$x,$y,128,128/128,/0/default.jpg")
  done; done
done
[ "$(echo "$statuses" | tr ' ' '\n' | grep -c '^200$')" -eq 8 ] && [ $(($(log_lines b) - b_before)) -eq 8 ] \
  && ok "replica a killed (SIGKILL): 8 new tiles all 200, answered by replica b" || fail "after the kill: $statuses"
start_replica a "$port_a"
before=$(log_lines a)
for image in retina.jpg chelsea.png; do
  for s in 128 64; do curl -s -o /dev/null "$base/iiif/3/$image/0,0,512,512/$s,/0/default.jpg"; done
done
sleep 6  # fail_timeout: nginx tries replica a again after 5 s
for image in retina.jpg chelsea.png; do
  for s in 32 16; do curl -s -o /dev/null "$base/iiif/3/$image/0,0,512,512/$s,/0/default.jpg"; done
done
[ "$(log_lines a)" -gt "$before" ] && ok "replica a restarted: it serves again" \
  || fail "the restarted replica got no request"

# A rolling restart: replica b too is stopped and started again, so neither process that saw the view is left;
# its token (signed with the key both keep in the cache folder) goes on, and the frame is the command's.
kill -TERM "$replica_b"
while kill -0 "$replica_b" 2>/dev/null; do sleep 0.05; done
start_replica b "$port_b"
sleep 6  # nginx tries replica b again after its fail_timeout
view=$(step "${gestures[3]}")
curl -s -o "$work/frame.png" "$base/api/views/$view/frame.png"
cli_frame 4 "$work/cli.png"
cmp -s "$work/frame.png" "$work/cli.png" \
  && ok "after a rolling restart of both replicas the view goes on: its fourth gesture's frame is tileview zoom's" \
  || fail "after the rolling restart: frame differs ($(wc -c < "$work/frame.png") bytes)"

# The viewer through nginx: Chromium's view survives the loss of the replica that held it.
SE_OFFLINE=true .build/browser-venv/bin/python scripts/lib/replica_browser.py "$tv" "$work/root" "$base" \
  "$work/a.log" "$replica_a" "$work/b.log" "$replica_b" 2>&1 | sed 's/^/browser: /'
[ "${PIPESTATUS[0]}" -eq 0 ] || failures=$((failures + 1))

# Logins through nginx, the replicas started as the recipe says with --users: --trusted-proxies 127.0.0.1. Two
# clients, connecting from the loopback addresses 127.0.0.2 and 127.0.0.3 (nginx names each in X-Forwarded-For),
# are counted apart: wrong passwords from the first lock it out on both replicas, and the second still logs in on
# both. Each replica counts its own failures, so N replicas give a client 5 x N tries a minute.
for pid in "${pids[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
for pid in "${pids[@]}"; do while kill -0 "$pid" 2>/dev/null; do sleep 0.05; done; done
printf 'right horse\n' | "$tv" serve --hash-password alice --hash-cost 10 > "$work/users"
head -c 32 /dev/urandom > "$work/session.key"
for r in a b; do
  port_var="port_$r"
  start_replica "$r" "${!port_var}" --users "$work/users" --session-key "$work/session.key" --trusted-proxies 127.0.0.1
done
sleep 6  # nginx tries the replicas again after their fail_timeout
login() {  # login FROM PASSWORD [HEADER]: the status of POST /login from the loopback address FROM
  curl -s -o /dev/null -w "%{http_code} " --interface "$1" ${3:+-H "$3"} -d "user=alice&password=$2" "$base/login"
}
# Wrong passwords from 127.0.0.2 until both replicas refuse it (each logs a 429), at most 30.
refused() { grep -c "POST /login 429" "$work/$1.log" || true; }
wrong=""
for _ in $(seq 1 30); do
  [ "$(refused a)" -gt 0 ] && [ "$(refused b)" -gt 0 ] && break
  wrong+=$(login 127.0.0.2 nope)
done
first_five=${wrong:0:20}
locked=$(login 127.0.0.2 right+horse)$(login 127.0.0.2 right+horse "X-Forwarded-For: 127.0.0.9")
other=$(login 127.0.0.3 right+horse)$(login 127.0.0.3 right+horse)
[ "$first_five" = "401 401 401 401 401 " ] && [ "$(refused a)" -gt 0 ] && [ "$(refused b)" -gt 0 ] \
  && [ "$locked" = "429 429 " ] && [ "$other" = "303 303 " ] \
  && ok "logins through nginx: wrong passwords lock 127.0.0.2 out on both replicas (429, a forged X-Forwarded-For too), 127.0.0.3 still logs in on both (303)" \
  || fail "logins through nginx: wrong $wrong, then $locked, another client $other"

# systemd: the unit as written (its binary path made this build's), verified with nothing to say.
mkdir -p "$work/units"
sed "s|/usr/local/bin/tileview|$tv|" deploy/systemd/tileview-serve@.service > "$work/units/tileview-serve@.service"
said=$(systemd-analyze verify "$work/units/tileview-serve@8081.service" 2>&1 || echo "exit status $?")
[ -z "$said" ] && ok "systemd-analyze verify: the unit is clean" || fail "systemd-analyze verify: $said"
lost=""
for key in DynamicUser=yes ProtectSystem=strict ProtectHome=yes ReadOnlyPaths= CacheDirectory=tileview \
  StateDirectory=tileview NoNewPrivileges=yes "CapabilityBoundingSet=$"; do
  grep -q "^$key" deploy/systemd/tileview-serve@.service || lost+=" $key"
done
[ -z "$lost" ] && ok "the unit keeps its hardening (DynamicUser, ProtectSystem=strict, read-only photos, its own cache and state)" \
  || fail "the unit lost$lost"

# Kubernetes: the schema, the recipe's own checks, and its arguments starting a real server.
venv=.build/cluster-venv
"$venv/bin/kubernetes-validate" --strict deploy/kubernetes/tileview-serve.yaml >/dev/null \
  && ok "kubernetes-validate --strict deploy/kubernetes/tileview-serve.yaml" || fail "kubernetes-validate"
"$venv/bin/python" scripts/lib/k8s_serve.py deploy/kubernetes/tileview-serve.yaml | sed 's/^/kubernetes: /' \
  || failures=$((failures + 1))
port_k=$(free_port)
mapfile -t k8s_args < <("$venv/bin/python" -c '
import sys, yaml
d = [x for x in yaml.safe_load_all(open(sys.argv[1])) if x and x["kind"] == "Deployment"][0]
print("\n".join(d["spec"]["template"]["spec"]["containers"][0]["args"]))' deploy/kubernetes/tileview-serve.yaml)
for i in "${!k8s_args[@]}"; do
  case ${k8s_args[$i]} in
    /photos) k8s_args[$i]=$work/root ;;
    /cache) k8s_args[$i]=$work/cache ;;
    8080) k8s_args[$i]=$port_k ;;
  esac
done
"$tv" "${k8s_args[@]}" 2>"$work/k8s.log" &
pids+=("$!")
disown "$!"
for _ in $(seq 1 100); do curl -s -o /dev/null "http://127.0.0.1:$port_k/healthz" && break; sleep 0.1; done
probe=$(curl -s -o /dev/null -w "%{http_code}" "http://127.0.0.1:$port_k/healthz")
info=$(curl -s -o /dev/null -w "%{http_code}" -H "Host: photos.example.org" \
  "http://127.0.0.1:$port_k/iiif/3/rocket.jpg/info.json")
[ "$probe" = 200 ] && [ "$info" = 200 ] \
  && ok "the Deployment's arguments start a server: /healthz 200, info.json for Host photos.example.org 200" \
  || fail "the Deployment's server: healthz $probe, info.json $info: $(tail -3 "$work/k8s.log")"

echo "replicas: $failures failed"
[ "$failures" -eq 0 ]
