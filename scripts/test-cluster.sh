#!/usr/bin/env bash
# The batch recipes on real engines (deploy/):
# - Slurm: installs munge, slurmctld and slurmd from Debian's packages when missing, starts a single-node cluster
#   from deploy/slurm/slurm.conf.in (daemons in the foreground, no systemd, no cgroups, its own ports and state
#   folder), submits deploy/slurm/tileview-gallery.sbatch as an 8-task array over a 50-page gallery, waits, and
#   compares the union of the shards with an unsharded run byte for byte;
# - Kubernetes: validates deploy/kubernetes/tileview-gallery-job.yaml with kubernetes-validate (PyPI, offline),
#   checks it is an Indexed Job whose command shards itself (scripts/lib/k8s_job.py), and runs the container
#   command once per index with JOB_COMPLETION_INDEX set, compared with an unsharded run likewise.
# Stops every daemon it started. Exit 0 when both match. TILEVIEW names the binary (default .build/debug/tileview).
set -euo pipefail
cd "$(dirname "$0")/.."
tv=$(realpath "${TILEVIEW:-.build/debug/tileview}")
repo=$PWD
scripts/ensure-deps.sh cluster
venv=.build/cluster-venv

work=$(mktemp -d)
started=()
# Stops the daemons started here: SIGTERM, then SIGKILL for one still running after 10 s (slurmd can linger
# once its controller is gone), so the script never waits forever.
stop_daemons() {
  local pid
  for pid in "${started[@]}"; do kill "$pid" 2>/dev/null || true; done
  for _ in $(seq 1 100); do
    local alive=0
    for pid in "${started[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
    [ $alive -eq 0 ] && break
    sleep 0.1
  done
  for pid in "${started[@]}"; do kill -9 "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  started=()
}
stop_munge() {
  [ -n "${started_munge:-}" ] || return 0
  local pid
  pid=$(cat /run/munge/munged.pid 2>/dev/null || true)
  [ -n "$pid" ] || return 0
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -9 "$pid" 2>/dev/null || true
  started_munge=
}
cleanup() {
  stop_daemons
  stop_munge
  rm -rf "$work"
}
trap cleanup EXIT

# 50 pages: the sample photos over and over, under their own names.
photos=(SampleImages/*.jpg SampleImages/*.png)
mkdir -p "$work/pages"
for i in $(seq 0 49); do
  src=${photos[$((i % ${#photos[@]}))]}
  cp "$src" "$work/pages/page-$(printf %02d "$i").${src##*.}"
done
moves=$(printf 'next,%.0s' $(seq 1 49)); moves=${moves%,}
same_frames() { # reference folder, other folder
  local count=0
  for f in "$1"/frame-*.png; do
    cmp -s "$f" "$2/$(basename "$f")" || { echo "differs: $(basename "$f")"; return 1; }
    count=$((count + 1))
  done
  [ "$(ls "$2" | grep -c '^frame-')" -eq "$count" ] || { echo "frame counts differ"; return 1; }
  echo "$count frames byte-identical"
}

# ---- Slurm ---------------------------------------------------------------------------------------------------
start=$(date +%s)
"$tv" gallery --dir "$work/pages" --moves "$moves" --viewport 320x240 -o "$work/reference" >/dev/null
if ! pgrep -x munged >/dev/null; then
  mkdir -p /run/munge && chown munge:munge /run/munge
  [ -s /etc/munge/munge.key ] || { dd if=/dev/urandom bs=1 count=1024 of=/etc/munge/munge.key 2>/dev/null; chown munge /etc/munge/munge.key; chmod 400 /etc/munge/munge.key; }
  # Its own output away from ours: a daemon holding our standard output open would keep a reader waiting.
  runuser -u munge -- munged </dev/null >/dev/null 2>&1
  started_munge=1
fi
ports=$(python3 -c 'import socket
s = [socket.socket() for _ in range(2)]
[x.bind(("127.0.0.1", 0)) for x in s]
print(" ".join(str(x.getsockname()[1]) for x in s))')
read -r ctld_port d_port <<<"$ports"
mkdir -p "$work/slurm/ctld" "$work/slurm/d"
sed -e "s|@HOST@|$(hostname)|g; s|@CPUS@|$(nproc)|; s|@MEMORY@|2048|; s|@STATE@|$work/slurm|g" \
  -e "s|@CTLD_PORT@|$ctld_port|; s|@D_PORT@|$d_port|" deploy/slurm/slurm.conf.in >"$work/slurm/slurm.conf"
export SLURM_CONF=$work/slurm/slurm.conf
slurmctld -D -f "$SLURM_CONF" >"$work/slurm/ctld.out" 2>&1 &
started+=($!)
slurmd -D -f "$SLURM_CONF" >"$work/slurm/d.out" 2>&1 &
started+=($!)
for _ in $(seq 1 100); do
  sinfo -h -o %t 2>/dev/null | grep -q idle && break
  sleep 0.2
done
sinfo -h -o '%P %a %D %t' | sed 's/^/slurm: /'
job=$(PAGES=$work/pages OUTDIR=$work/slurm-frames MOVES=$moves VIEWPORT=320x240 TILEVIEW=$tv \
  sbatch --parsable --array=1-8 --cpus-per-task=1 --mem=256M --chdir="$work" --output="$work/task-%a.log" \
  --export=ALL "$repo/deploy/slurm/tileview-gallery.sbatch")
echo "slurm: submitted array job $job (tasks 1-8)"
# Poll the queue (sbatch --wait backs off to 10 s between looks).
for _ in $(seq 1 1200); do
  [ -z "$(squeue -h -j "$job" 2>/dev/null)" ] && break
  sleep 0.25
done
status=0
for log in "$work"/task-*.log; do [ -s "$log" ] && sed "s|^|slurm $(basename "$log"): |" "$log"; done
echo "slurm: $(ls -A "$work/slurm-frames" | grep -c '^.tileview-journal-') shard journals"
same_frames "$work/reference" "$work/slurm-frames" | sed 's/^/slurm: /' || status=1
stop_daemons
stop_munge
echo "slurm: $(( $(date +%s) - start )) s"

# ---- Kubernetes ----------------------------------------------------------------------------------------------
manifest=deploy/kubernetes/tileview-gallery-job.yaml
"$venv/bin/kubernetes-validate" --strict "$manifest" | sed 's/^/kubernetes: /'
completions=$("$venv/bin/python" scripts/lib/k8s_job.py check "$manifest")
echo "kubernetes: an Indexed Job of $completions completions, --shard auto --shards $completions --resume"
mkdir -p "$work/data" && ln -s "$work/pages" "$work/data/pages"
command_json=$("$venv/bin/python" scripts/lib/k8s_job.py command "$manifest" "$tv" "$work/data" 320x240)
mapfile -t command < <("$venv/bin/python" -c 'import json, sys; print("\n".join(json.loads(sys.argv[1])))' "$command_json")
# The same command unsharded is the reference: drop --shard auto --shards N.
reference=()
skip=0
for word in "${command[@]}"; do
  if [ $skip -gt 0 ]; then skip=$((skip - 1)); continue; fi
  case "$word" in --shard | --shards) skip=1; continue ;; esac
  reference+=("${word/$work\/data\/frames/$work/k8s-reference}")
done
"${reference[@]}" >/dev/null
for index in $(seq 0 $((completions - 1))); do
  JOB_COMPLETION_INDEX=$index "${command[@]}" >/dev/null
done
same_frames "$work/k8s-reference" "$work/data/frames" | sed 's/^/kubernetes: /' || status=1
exit $status
