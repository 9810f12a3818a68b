#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Offline checks of the Kubernetes manifests and the Containerfile in
deploy/, without a cluster:
  - every YAML file parses, and every object has what its kind needs
    (DaemonSet, Service, Job, Kustomization; see check_* below);
  - every kustomization renders (`kubectl kustomize`), and the rendered
    objects pass the same checks; the overlays change what they say and
    nothing else;
  - every rendered object decodes into Kubernetes' own Go types
    (`kubectl set ... --local`: no API server) and comes back with every
    field it had: a misspelt or misplaced field, a string where a number
    belongs or a kind that apps/v1 or batch/v1 does not have fails.
usage: deploy_manifests.py DEPLOY_DIR [--version X.Y.Z] [--kubectl PATH|none]
Prints one line per check and a summary; exits 1 if any check failed."""
import copy, json, os, re, shutil, subprocess, sys, tempfile

import yaml

RESTRICTED_CAPS = ["ALL"]
NAME_RE = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
PORT_NAME_RE = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
SENTINEL_IMAGE = "validate.invalid/xperf:0"
SENTINEL_SELECTOR = {"xperf-validate": "1"}


class Report:
    """Counts checks; remembers failures with what they were about."""

    def __init__(self):
        self.n, self.bad = 0, []

    def ok(self, cond, what):
        self.n += 1
        if not cond:
            self.bad.append(what)
            print("FAIL " + what)
        return cond

    def note(self, line):
        print("ok   " + line)


def get(obj, path, default=None):
    """obj at a dotted path ('spec.template.spec'), default if absent."""
    for key in path.split("."):
        if not isinstance(obj, dict) or key not in obj:
            return default
        obj = obj[key]
    return obj


def load_yaml_files(root, rep):
    """{relative path: [documents]} of every .yaml under root."""
    out = {}
    for dirpath, _, files in sorted(os.walk(root)):
        for f in sorted(files):
            if not f.endswith((".yaml", ".yml")):
                continue
            path = os.path.join(dirpath, f)
            rel = os.path.relpath(path, os.path.dirname(root))
            try:
                docs = [d for d in yaml.safe_load_all(open(path)) if d is not None]
            except yaml.YAMLError as e:
                rep.ok(False, "%s: YAML: %s" % (rel, e))
                continue
            rep.ok(docs and all(isinstance(d, dict) for d in docs),
                   "%s: one or more YAML mappings" % rel)
            out[rel] = docs
    return out


def check_meta(obj, where, rep):
    for key in ("apiVersion", "kind"):
        rep.ok(isinstance(obj.get(key), str) and obj[key], "%s: %s" % (where, key))
    name = get(obj, "metadata.name")
    rep.ok(isinstance(name, str) and NAME_RE.match(name) and len(name) <= 63,
           "%s: metadata.name is a DNS label (%r)" % (where, name))


def check_container(c, where, rep, restricted):
    rep.ok(isinstance(c.get("name"), str) and NAME_RE.match(c["name"]),
           "%s: container name" % where)
    rep.ok(isinstance(c.get("image"), str) and c["image"], "%s: image" % where)
    args = c.get("args")
    rep.ok(isinstance(args, list) and args and all(isinstance(a, str) for a in args),
           "%s: args is a list of strings" % where)
    env = {e.get("name") for e in c.get("env", [])}
    for a in args or []:
        for var in re.findall(r"\$\((\w+)\)", a):
            rep.ok(var in env, "%s: $(%s) in args is set in env" % (where, var))
    names = set()
    for p in c.get("ports", []):
        n, cp = p.get("name"), p.get("containerPort")
        rep.ok(isinstance(cp, int) and 0 < cp < 65536, "%s: containerPort %r" % (where, cp))
        rep.ok(p.get("protocol", "TCP") in ("TCP", "UDP", "SCTP"), "%s: port protocol" % where)
        rep.ok(isinstance(n, str) and len(n) <= 15 and PORT_NAME_RE.match(n) and n not in names,
               "%s: port name %r (unique, at most 15 characters)" % (where, n))
        names.add(n)
    sc = c.get("securityContext", {})
    rep.ok(sc.get("allowPrivilegeEscalation") is False, "%s: allowPrivilegeEscalation false" % where)
    rep.ok(sc.get("readOnlyRootFilesystem") is True, "%s: readOnlyRootFilesystem" % where)
    rep.ok(get(sc, "capabilities.drop") == RESTRICTED_CAPS and not get(sc, "capabilities.add"),
           "%s: drops every capability, adds none" % where)
    if restricted:
        rep.ok(get(sc, "privileged") in (None, False), "%s: not privileged" % where)


def check_pod(tpl, where, rep, restricted=True):
    """A pod template: labels, containers, the restricted security profile."""
    spec = tpl.get("spec") or {}
    cs = spec.get("containers")
    rep.ok(isinstance(cs, list) and cs, "%s: spec.template.spec.containers" % where)
    for c in cs or []:
        check_container(c, "%s container %s" % (where, c.get("name")), rep, restricted)
    psc = spec.get("securityContext", {})
    rep.ok(get(psc, "seccompProfile.type") == "RuntimeDefault", "%s: seccomp RuntimeDefault" % where)
    if restricted:
        rep.ok(psc.get("runAsNonRoot") is True and psc.get("runAsUser", 0) > 0,
               "%s: runs as a non-root user" % where)
        rep.ok(not spec.get("hostNetwork") and not spec.get("hostPID"),
               "%s: no host namespaces" % where)
    return spec


def check_daemonset(obj, where, rep, restricted=True):
    rep.ok(obj.get("apiVersion") == "apps/v1", "%s: apiVersion apps/v1" % where)
    sel = get(obj, "spec.selector.matchLabels") or {}
    labels = get(obj, "spec.template.metadata.labels") or {}
    rep.ok(sel and all(labels.get(k) == v for k, v in sel.items()),
           "%s: selector %s matches the template labels" % (where, sel))
    spec = check_pod(obj["spec"]["template"], where, rep, restricted)
    args = spec["containers"][0].get("args", [])
    rep.ok(args[:1] == ["-s"], "%s: the container runs xperf -s" % where)
    rep.ok(any(p.get("containerPort") == 5310 and p.get("protocol") == "UDP"
               for p in spec["containers"][0].get("ports", [])),
           "%s: UDP port 5310 declared beside TCP" % where)


def check_job(obj, where, rep, restricted=True):
    rep.ok(obj.get("apiVersion") == "batch/v1", "%s: apiVersion batch/v1" % where)
    s = obj.get("spec", {})
    rep.ok(s.get("completionMode") == "Indexed", "%s: completionMode Indexed" % where)
    c, p = s.get("completions"), s.get("parallelism")
    rep.ok(isinstance(c, int) and c >= 1 and c == p,
           "%s: completions (%r) = parallelism (%r): every client at once" % (where, c, p))
    rep.ok(s.get("backoffLimitPerIndex") == 0 and "backoffLimit" not in s,
           "%s: a failed client is not retried out of step (backoffLimitPerIndex 0)" % where)
    spec = check_pod(s.get("template", {}), where, rep, restricted)
    rep.ok(spec.get("restartPolicy") == "Never", "%s: restartPolicy Never" % where)
    args = spec["containers"][0].get("args", [])
    rep.ok("-c" in args and "--json" in args, "%s: xperf -c ... --json" % where)


def check_service(obj, where, rep, pods):
    rep.ok(obj.get("apiVersion") == "v1", "%s: apiVersion v1" % where)
    sel = get(obj, "spec.selector") or {}
    match = [t for t in pods if sel and all(
        (get(t, "metadata.labels") or {}).get(k) == v for k, v in sel.items())]
    rep.ok(len(match) == 1, "%s: selector %s picks one pod template" % (where, sel))
    ports = {(p.get("name"), p.get("protocol", "TCP"))
             for t in match for c in t["spec"]["containers"] for p in c.get("ports", [])}
    for sp in get(obj, "spec.ports") or []:
        rep.ok(isinstance(sp.get("port"), int), "%s: port %r is a number" % (where, sp.get("port")))
        tp = (sp.get("targetPort"), sp.get("protocol", "TCP"))
        rep.ok(tp in ports, "%s: targetPort %s/%s is a container port" % (where, tp[0], tp[1]))


def check_objects(objs, where, rep, restricted=True):
    """Each object by its kind; Services against the pod templates beside them."""
    pods = [o["spec"]["template"] for o in objs if o.get("kind") in ("DaemonSet", "Job")]
    for o in objs:
        w = "%s %s/%s" % (where, o.get("kind"), get(o, "metadata.name"))
        check_meta(o, w, rep)
        kind = o.get("kind")
        if kind == "DaemonSet":
            check_daemonset(o, w, rep, restricted)
        elif kind == "Job":
            check_job(o, w, rep, restricted)
        elif kind == "Service":
            check_service(o, w, rep, pods)
        else:
            rep.ok(False, "%s: a kind this check does not know" % w)


def check_kustomization(k, where, base, rep, version):
    rep.ok(k.get("apiVersion") == "kustomize.config.k8s.io/v1beta1"
           and k.get("kind") == "Kustomization", "%s: Kustomization v1beta1" % where)
    for r in k.get("resources", []):
        p = os.path.normpath(os.path.join(base, r))
        rep.ok(os.path.isfile(p) or os.path.isfile(os.path.join(p, "kustomization.yaml")),
               "%s: resource %s exists" % (where, r))
    for im in k.get("images", []):
        rep.ok(im.get("name") == "xperf" and im.get("newName"), "%s: images names xperf" % where)
        if version:
            rep.ok(str(im.get("newTag")) == version,
                   "%s: image tag %r is xperf's version %s" % (where, im.get("newTag"), version))


def kubectl(kc, args, stdin=None):
    """(status, stdout, stderr) of kubectl with no cluster configured."""
    env = dict(os.environ, KUBECONFIG=os.devnull)
    p = subprocess.run([kc] + args, input=stdin, capture_output=True, text=True,
                       env=env, timeout=60)
    return p.returncode, p.stdout, p.stderr


def render(kc, d, where, rep):
    rc, out, err = kubectl(kc, ["kustomize", d])
    if not rep.ok(rc == 0, "%s: kubectl kustomize: %s" % (where, err.strip()[-300:])):
        return []
    return [o for o in yaml.safe_load_all(out) if o]


def subset(a, b, path, diffs):
    """Every field of a is in b with the same value; differences to diffs."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k, v in a.items():
            if k not in b:
                diffs.append("%s.%s dropped" % (path, k))
            else:
                subset(v, b[k], "%s.%s" % (path, k), diffs)
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            subset(x, y, "%s[%d]" % (path, i), diffs)
    elif a != b:
        diffs.append("%s: %r became %r" % (path, a, b))


def sentinel(obj):
    """The setter that decodes obj into its Go type, and obj as it expects
    the result (its one change applied)."""
    want = copy.deepcopy(obj)
    if obj["kind"] in ("DaemonSet", "Job"):
        for c in want["spec"]["template"]["spec"]["containers"]:
            c["image"] = SENTINEL_IMAGE
        return ["set", "image", "--local", "*=" + SENTINEL_IMAGE], want
    if obj["kind"] == "Service":
        want["spec"]["selector"] = dict(SENTINEL_SELECTOR)
        sel = ["%s=%s" % kv for kv in SENTINEL_SELECTOR.items()]
        return ["set", "selector", "--local"] + sel, want
    return None, None


def decode(kc, args, objs, tmp):
    """objs through one kubectl call: (status, [decoded objects], stderr)."""
    d = tempfile.mkdtemp(dir=tmp)
    for i, o in enumerate(objs):
        with open(os.path.join(d, "%03d.json" % i), "w") as f:
            json.dump(o, f)
    rc, out, err = kubectl(kc, args + ["-f", d, "-o", "json"])
    if rc:
        return rc, [], err
    got, dec, i = [], json.JSONDecoder(), 0
    while out[i:].strip():  # one JSON document per object, back to back
        o, n = dec.raw_decode(out[i:].lstrip())
        i = len(out) - len(out[i:].lstrip()) + n
        got += o.get("items", []) if o.get("kind") == "List" else [o]
    return rc, got, err


def round_trips(kc, named, tmp, rep):
    """Each (where, obj) through Kubernetes' typed decoder and back, with
    nothing lost; one kubectl call per setter, one per object on error."""
    groups = {}
    for where, obj in named:
        args, want = sentinel(obj)
        if rep.ok(args is not None, "%s: a kubectl decoder for kind %s" % (where, obj["kind"])):
            groups.setdefault(tuple(args), []).append((where, obj, want))
    for args, items in groups.items():
        rc, got, err = decode(kc, list(args), [o for _, o, _ in items], tmp)
        if rc or len(got) != len(items):
            got = []
            for where, obj, _ in items:
                rc, one, err = decode(kc, list(args), [obj], tmp)
                rep.ok(rc == 0, "%s: typed decode: %s" % (where, err.strip()[-300:]))
                got.append(one[0] if one else None)
        for (where, obj, want), back in zip(items, got):
            if back is None:
                continue
            diffs = []
            subset(want, back, obj["kind"], diffs)
            if rep.ok(not diffs, "%s: fields lost or changed by decoding: %s"
                      % (where, "; ".join(diffs))):
                rep.note("%s: decodes into %s %s with every field kept"
                         % (where, obj["apiVersion"], obj["kind"]))


def find(objs, kind):
    return [o for o in objs if o.get("kind") == kind][0]


def want_hostnetwork(objs, kind):
    objs = copy.deepcopy(objs)
    spec = find(objs, kind)["spec"]["template"]["spec"]
    spec["hostNetwork"] = True
    spec["dnsPolicy"] = "ClusterFirstWithHostNet"
    return objs


def want_auth(objs):
    objs = copy.deepcopy(objs)
    spec = find(objs, "DaemonSet")["spec"]["template"]["spec"]
    spec["volumes"] = [{"name": "auth", "secret": {"secretName": "xperf-auth",
                                                   "defaultMode": 0o440}}]
    c = spec["containers"][0]
    c["volumeMounts"] = [{"name": "auth", "mountPath": "/etc/xperf", "readOnly": True}]
    c["args"] = c["args"] + ["--auth-file", "/etc/xperf/key"]
    spec["securityContext"]["fsGroup"] = 65532
    return objs


# overlay directory: (its base, the base's objects as the overlay must make them)
OVERLAYS = {
    "hostnetwork/server": ("server", lambda o: want_hostnetwork(o, "DaemonSet")),
    "hostnetwork/client": ("client", lambda o: want_hostnetwork(o, "Job")),
    "auth": ("server", want_auth),
}


def check_rendered(kc, root, rep):
    """Render every kustomization; check bases, overlays and decoding."""
    dirs = sorted(os.path.relpath(dp, root) for dp, _, fs in os.walk(root)
                  if "kustomization.yaml" in fs)
    got = {d: render(kc, os.path.join(root, d), "deploy/" + d, rep) for d in dirs}
    rep.ok(set(OVERLAYS) | {"server", "client"} == set(dirs),
           "deploy/: kustomizations %s are the known ones" % dirs)
    named = []
    for d, objs in got.items():
        where = "kubectl kustomize deploy/" + d
        check_objects(objs, where, rep, restricted=d in ("server", "client"))
        named += [("%s %s/%s" % (where, o["kind"], o["metadata"]["name"]), o) for o in objs]
        if d in OVERLAYS and OVERLAYS[d][0] in got:
            base, make = OVERLAYS[d]
            diffs = []
            subset(make(got[base]), objs, d, diffs)
            subset(objs, make(got[base]), d, diffs)
            if rep.ok(not diffs, "deploy/%s differs from deploy/%s in more than its patch: %s"
                      % (d, base, "; ".join(diffs))):
                rep.note("deploy/%s = deploy/%s with exactly its patch" % (d, base))
    with tempfile.TemporaryDirectory() as tmp:
        round_trips(kc, named, tmp, rep)


def check_containerfile(root, rep):
    text = open(os.path.join(root, "Containerfile")).read()
    lines = [l.strip() for l in text.splitlines() if l.strip() and not l.startswith("#")]
    froms = [l.split()[1] for l in lines if l.startswith("FROM ")]
    rep.ok(len(froms) >= 2 and froms[-1] == "scratch", "Containerfile: multi-stage, last FROM scratch")
    rep.ok(lines[0].startswith("ARG BUILD_IMAGE="), "Containerfile: ARG BUILD_IMAGE before FROM")
    last = lines[max(i for i, l in enumerate(lines) if l.startswith("FROM "))]
    final = lines[lines.index(last):]
    user = [l.split()[1] for l in final if l.startswith("USER ")]
    rep.ok(user and re.match(r"^[1-9][0-9]*:[1-9][0-9]*$", user[-1]),
           "Containerfile: final USER is a numeric non-root uid:gid (%s)" % user)
    rep.ok('ENTRYPOINT ["/xperf"]' in final, "Containerfile: ENTRYPOINT [\"/xperf\"]")
    rep.ok("EXPOSE 5310/tcp 5310/udp" in final, "Containerfile: EXPOSE 5310/tcp 5310/udp")
    ign = open(os.path.join(root, "Containerfile.dockerignore")).read().split()
    rep.ok(".git" in ign and "**/*.o" in ign and "config.status" in ign,
           "Containerfile.dockerignore: leaves out .git and host build output")
    if not rep.bad:
        rep.note("Containerfile: %d stages, final FROM scratch, USER %s" % (len(froms), user[-1]))


def main(argv):
    root, version, kc = argv[1], None, shutil.which("kubectl")
    for i, a in enumerate(argv):
        if a == "--version":
            version = argv[i + 1]
        elif a == "--kubectl":
            kc = None if argv[i + 1] == "none" else argv[i + 1]
    rep = Report()
    files = load_yaml_files(root, rep)
    for rel, docs in sorted(files.items()):
        base = os.path.join(os.path.dirname(root), os.path.dirname(rel))
        if os.path.basename(rel) == "kustomization.yaml":
            check_kustomization(docs[0], rel, base, rep, version)
        else:
            check_objects(docs, rel, rep)
        rep.note("%s: %s" % (rel, ", ".join("/".join(filter(None, (d.get("kind"),
                                                                  get(d, "metadata.name"))))
                                            for d in docs)))
    check_containerfile(root, rep)
    if kc:
        check_rendered(kc, root, rep)
    else:
        print("note kubectl not found: kustomize rendering and typed decoding not checked")
    print("manifest checks: %d passed, %d failed" % (rep.n - len(rep.bad), len(rep.bad)))
    return 1 if rep.bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
