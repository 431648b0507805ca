# Sourced by the scripts that test a real server: `serve_folder ROOT [ARGS...]` starts `$tv serve ROOT` on a
# free loopback port (sets `port`, `server` (its pid) and `server_log`) and waits until /healthz answers;
# `stop_server` stops it and removes its log; `server_alive` says whether it is still running.
serve_folder() {
  local root=$1
  shift
  server_log=$(mktemp)
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  "$tv" serve "$root" --port "$port" "$@" 2>"$server_log" &
  server=$!
  for _ in $(seq 1 100); do
    curl -s -o /dev/null "http://127.0.0.1:$port/healthz" && break
    sleep 0.1
  done
}

stop_server() {
  kill "$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
  rm -f "$server_log"
}

server_alive() {
  kill -0 "$server" 2>/dev/null
}
