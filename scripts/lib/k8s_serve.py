"""The serving recipe for Kubernetes (deploy/kubernetes/tileview-serve.yaml), checked for what the schema cannot
say: that its parts fit together and fit tileview's flags.

usage: k8s_serve.py MANIFEST   -> prints one line per check; exit 1 when any fails

Checks: the Deployment has at least two replicas and one container whose readiness and liveness probes ask
/healthz on a port the container declares; its args are `serve ROOT` with --cache-mb and --work-mb, and its
memory limit holds --cache-mb + --work-mb + 64 MiB (the server's bound); ROOT is mounted read-only and
--cache-dir is mounted writable; the Service selects the pods and targets a declared port; the
HorizontalPodAutoscaler scales this Deployment from at least two replicas; the PodDisruptionBudget selects the pods
and keeps fewer than the replicas available.
"""

import sys

import yaml

UNITS = {"Ki": 1 / 1024, "Mi": 1, "Gi": 1024}


def mebibytes(quantity):
    for suffix, factor in UNITS.items():
        if str(quantity).endswith(suffix):
            return float(str(quantity)[: -len(suffix)]) * factor
    return float(quantity) / (1 << 20)


def flag(args, name):
    return args[args.index(name) + 1] if name in args else None


def main(path):
    with open(path) as f:
        documents = {d["kind"]: d for d in yaml.safe_load_all(f) if d}
    failures = []

    def check(ok, what):
        print(("ok: " if ok else "FAIL: ") + what)
        if not ok:
            failures.append(what)

    deployment = documents["Deployment"]
    spec = deployment["spec"]
    pod = spec["template"]
    labels = pod["metadata"]["labels"]
    (container,) = pod["spec"]["containers"]
    ports = {p["name"]: p["containerPort"] for p in container.get("ports", [])}
    args = container["args"]
    check(spec.get("replicas", 1) >= 2, f"the Deployment runs {spec.get('replicas', 1)} replicas (at least 2)")
    check(spec["selector"]["matchLabels"].items() <= labels.items(), "the Deployment's selector matches its pods")
    for probe in ["readinessProbe", "livenessProbe"]:
        get = container.get(probe, {}).get("httpGet", {})
        check(get.get("path") == "/healthz" and (get.get("port") in ports or get.get("port") in ports.values()),
              f"the {probe} asks /healthz on a declared port")
    check(args[:1] == ["serve"] and len(args) > 1, "the container runs `tileview serve ROOT`")
    cache_mb, work_mb = flag(args, "--cache-mb"), flag(args, "--work-mb")
    limit = container["resources"]["limits"]["memory"]
    bound = int(cache_mb or 256) + int(work_mb or 128) + 64
    check(cache_mb is not None and work_mb is not None and mebibytes(limit) >= bound,
          f"the memory limit {limit} holds --cache-mb {cache_mb} + --work-mb {work_mb} + 64 MiB ({bound} MiB)")
    mounts = {m["mountPath"]: m for m in container.get("volumeMounts", [])}
    root, cache = args[1], flag(args, "--cache-dir")
    check(root in mounts and mounts[root].get("readOnly") is True, f"the photos ({root}) are mounted read-only")
    check(cache in mounts and not mounts[cache].get("readOnly"), f"the cache ({cache}) is mounted writable")
    check(flag(args, "--host") not in (None, "127.0.0.1", "localhost") and
          ("--public" in args or "--users" in args or "--tokens" in args),
          "the server listens beyond loopback with an access rule")

    service = documents["Service"]["spec"]
    check(service["selector"].items() <= labels.items(), "the Service selects the pods")
    check(all(p.get("targetPort") in ports or p.get("targetPort") in ports.values() for p in service["ports"]),
          "the Service targets a declared port")
    hpa = documents["HorizontalPodAutoscaler"]["spec"]
    check(hpa["scaleTargetRef"]["kind"] == "Deployment" and
          hpa["scaleTargetRef"]["name"] == deployment["metadata"]["name"] and hpa.get("minReplicas", 1) >= 2,
          "the autoscaler scales this Deployment from at least 2 replicas")
    pdb = documents["PodDisruptionBudget"]["spec"]
    check(pdb["selector"]["matchLabels"].items() <= labels.items() and
          1 <= pdb.get("minAvailable", 0) < spec.get("replicas", 1),
          "the disruption budget keeps a pod serving and lets a node drain")
    print(f"kubernetes serve recipe: {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
