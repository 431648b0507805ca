"""The Kubernetes recipe, checked and run without a cluster.

usage: k8s_job.py check MANIFEST           -> prints the completions; exit 1 with the reason when the Job is not
                                              an Indexed Job whose command shards itself with --shards = completions
       k8s_job.py command MANIFEST TILEVIEW DATA VIEWPORT
                                           -> prints the container command as JSON, with the binary, the /data
                                              folder and the viewport replaced for a local run
"""

import json
import sys

import yaml


def load(path):
    with open(path) as f:
        documents = [d for d in yaml.safe_load_all(f) if d]
    jobs = [d for d in documents if d.get("kind") == "Job"]
    if len(jobs) != 1:
        sys.exit(f"{path}: expected one Job, found {len(jobs)}")
    return jobs[0]


def container_command(job):
    containers = job["spec"]["template"]["spec"]["containers"]
    if len(containers) != 1:
        sys.exit("expected one container")
    return containers[0]["command"]


def check(path):
    job = load(path)
    spec = job["spec"]
    if spec.get("completionMode") != "Indexed":
        sys.exit(f"{path}: completionMode is {spec.get('completionMode')!r}, not 'Indexed'")
    completions = spec.get("completions")
    if not isinstance(completions, int) or completions < 1:
        sys.exit(f"{path}: completions must be a positive whole number")
    command = container_command(job)
    if "--shard" not in command or command[command.index("--shard") + 1] != "auto":
        sys.exit(f"{path}: the command does not use --shard auto")
    if "--shards" not in command or int(command[command.index("--shards") + 1]) != completions:
        sys.exit(f"{path}: --shards must equal completions ({completions})")
    if "--resume" not in command:
        sys.exit(f"{path}: a retried index should --resume")
    print(completions)


def command(path, tileview, data, viewport):
    words = container_command(load(path))
    words = [tileview if i == 0 else w.replace("/data", data, 1) if w.startswith("/data") else w
             for i, w in enumerate(words)]
    if "--viewport" in words:
        words[words.index("--viewport") + 1] = viewport
    print(json.dumps(words))


if __name__ == "__main__":
    if sys.argv[1] == "check":
        check(sys.argv[2])
    else:
        command(*sys.argv[2:6])
