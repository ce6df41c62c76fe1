#!/usr/bin/env python3
"""Checks spack.yaml against Spack itself (ctest: packaging.spack_schema).

  python3 tests/spack_schema.py spack.yaml

1. The file against Spack's environment schema (lib/spack/spack/schema/env.py,
   which merges the schemas of every configuration section), with Spack's
   own validator where it can be built, plain jsonschema otherwise; every
   spec string through Spack's spec parser where it can be imported.
2. Every spec, its dependencies (^...) included, against Spack's package
   recipes: the package exists, some non-deprecated version of it satisfies
   the version constraint, every variant (+v, ~v, name=value) is one the
   recipe declares, with a value it allows. Spec lines in comments
   ("#   - kokkos@4.6.01 +cuda ...", the GPU alternative) are checked the same
   way, so that the advice in the file cannot drift either.

Where Spack is: $SPACK_ROOT, else ~/spack, /opt/spack or
/work/.mirror/spack+spack/repo; a checkout or a bare git directory (its
lib/spack is then extracted into a temporary folder). The recipes: the
builtin repository of that checkout (var/spack/repos/builtin/packages, Spack
before 1.0), else $SPACK_PACKAGES_ROOT or /work/.mirror/spack+spack-packages/repo
(the spack-packages repository of Spack 1.x, a checkout or a bare git directory).
Without a Spack the check is skipped: exit status 77 (SKIP_RETURN_CODE);
without recipes, part 2 is skipped and said so. Nothing of Spack is part of
this repository.
"""
import ast
import os
import re
import subprocess
import sys
import tarfile
import tempfile
import io

SKIP = 77


class Tree:
    """A checkout, or a bare git directory read with git show."""

    def __init__(self, path):
        self.path = path
        self.bare = not os.path.isdir(os.path.join(path, "lib")) and not os.path.isdir(
            os.path.join(path, "repos")) and os.path.isfile(os.path.join(path, "HEAD"))

    def read(self, rel):
        if not self.bare:
            full = os.path.join(self.path, rel)
            if not os.path.isfile(full):
                return None
            with open(full, encoding="utf-8") as f:
                return f.read()
        r = subprocess.run(["git", "--git-dir", self.path, "show", "HEAD:" + rel], capture_output=True)
        return r.stdout.decode("utf-8") if r.returncode == 0 else None

    def has(self, rel):
        if not self.bare:
            return os.path.exists(os.path.join(self.path, rel))
        r = subprocess.run(["git", "--git-dir", self.path, "cat-file", "-e", "HEAD:" + rel], capture_output=True)
        return r.returncode == 0

    def checkout_of(self, rel, tmp):
        """A folder holding `rel` as files (extracted from a bare directory)."""
        if not self.bare:
            return self.path
        data = subprocess.run(["git", "--git-dir", self.path, "archive", "HEAD", rel], capture_output=True,
                              check=True).stdout
        with tarfile.open(fileobj=io.BytesIO(data)) as t:
            t.extractall(tmp)
        return tmp


def find_spack():
    candidates = []
    if os.environ.get("SPACK_ROOT"):
        candidates.append(os.environ["SPACK_ROOT"])
    candidates += [os.path.expanduser("~/spack"), "/opt/spack", "/work/.mirror/spack+spack/repo"]
    for c in candidates:
        if os.path.isdir(c):
            t = Tree(c)
            if t.has("lib/spack/spack/schema/env.py"):
                return t
    return None


def find_recipes(spack):
    """(tree, folder of packages inside it) or None."""
    if spack.has("var/spack/repos/builtin/packages/kokkos/package.py"):
        return spack, "var/spack/repos/builtin/packages"
    candidates = []
    if os.environ.get("SPACK_PACKAGES_ROOT"):
        candidates.append(os.environ["SPACK_PACKAGES_ROOT"])
    candidates.append("/work/.mirror/spack+spack-packages/repo")
    for c in candidates:
        if os.path.isdir(c):
            t = Tree(c)
            if t.has("repos/spack_repo/builtin/packages/kokkos/package.py"):
                return t, "repos/spack_repo/builtin/packages"
    return None


def spack_validator(lib):
    """Spack's environment schema and a validator class for it."""
    sys.path[:0] = [lib, os.path.join(lib, "external"), os.path.join(lib, "external", "_vendoring")]
    import spack.schema.env  # noqa: E402

    schema = spack.schema.env.schema
    validator, how = None, ""
    try:
        import spack.main  # noqa: F401  (import order of spack itself: avoids a circular import)
        import spack.schema

        validator, how = spack.schema._make_validator(), "Spack's validator"
    except Exception as e:  # an older or newer Spack: plain Draft 4, as Spack's extends
        import jsonschema

        validator, how = jsonschema.Draft4Validator, "jsonschema Draft 4 (Spack's validator: %s)" % e
    parse = None
    for module in ("spack.spec_parser", "spack.parser"):
        try:
            m = __import__(module, fromlist=["parse"])
            parse = m.parse
            break
        except Exception:
            pass
    return schema, validator, how, parse


# --- specs -------------------------------------------------------------------------

def split_spec(text):
    """[(package, version constraint or None, [(variant, value or None, sign)])], root first."""
    nodes = []
    for part in re.split(r"\s*\^\s*", text.strip()):
        if not part:
            continue
        tokens = re.findall(r"[+~-]?[A-Za-z0-9_.@:,=%\-]+", part)
        # "name@1.2: +a" and "name@1.2:+a" alike: split the +/~ flags off.
        flat = []
        for tok in tokens:
            pieces = re.split(r"(?=[+~])", tok)
            flat += [p for p in pieces if p]
        name, version, variants = None, None, []
        for tok in flat:
            if tok[0] in "+~" or (tok[0] == "-" and name):
                variants.append((tok[1:], None, tok[0]))
            elif "=" in tok and name is not None:
                k, v = tok.split("=", 1)
                variants.append((k, v, "="))
            elif tok.startswith("%"):
                continue
            elif tok.startswith("@"):
                version = tok[1:]
            elif name is None:
                name, _, version = tok.partition("@")
                version = version or None
        nodes.append((name, version, variants))
    return nodes


def vkey(v):
    return [int(x) if x.isdigit() else x for x in re.split(r"[.\-]", v)]


def satisfies(version, constraint):
    """Spack's rules for the ones written here: a, a:, :b, a:b, =a, a,b (any)."""
    v = vkey(version)
    for c in constraint.split(","):
        if c.startswith("="):
            if version == c[1:]:
                return True
            continue
        if ":" in c:
            lo, hi = c.split(":", 1)
            ok_lo = not lo or v >= vkey(lo)
            h = vkey(hi) if hi else None
            ok_hi = not hi or v <= h or v[: len(h)] == h
            if ok_lo and ok_hi:
                return True
        else:
            k = vkey(c)
            if v == k or v[: len(k)] == k:
                return True
    return False


BASE_VARIANTS = {
    "CudaPackage": {"cuda": None, "cuda_arch": None},
    "ROCmPackage": {"rocm": None, "amdgpu_target": None},
    "CMakePackage": {"build_type": None, "generator": None, "ipo": None},
}


def recipe(source):
    """(versions {version: deprecated}, variants {name: allowed values or None})."""
    tree = ast.parse(source)
    versions, variants = {}, {}

    def const(node):
        return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None

    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for b in node.bases:
                name = b.id if isinstance(b, ast.Name) else getattr(b, "attr", None)
                variants.update(BASE_VARIANTS.get(name, {}))
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Dict):
            if any(isinstance(t, ast.Name) and t.id.endswith("_variants") for t in node.targets):
                for k in node.value.keys:
                    if const(k):
                        variants.setdefault(const(k), None)
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name) or not node.args:
            continue
        first = const(node.args[0])
        if first is None:
            continue
        kw = {k.arg: k.value for k in node.keywords}
        if node.func.id == "version":
            dep = isinstance(kw.get("deprecated"), ast.Constant) and kw["deprecated"].value is True
            versions[first] = versions.get(first, True) and dep
        elif node.func.id == "variant":
            values = kw.get("values")
            allowed = None
            if isinstance(values, (ast.Tuple, ast.List)) and all(const(e) for e in values.elts):
                allowed = {const(e) for e in values.elts}
            if first in variants and variants[first] is not None and allowed is not None:
                allowed |= variants[first]  # the same variant declared per version range
            elif first in variants and allowed is None:
                allowed = None
            variants[first] = allowed
    return versions, variants


def check_spec(text, where, recipes, problems, parse):
    if parse is not None:
        try:
            parse(text)
        except Exception as e:
            problems.append("%s: '%s' is not a spec Spack parses: %s" % (where, text, e))
            return
    if recipes is None:
        return
    tree, folder = recipes
    for name, version, variants in split_spec(text):
        src = tree.read("%s/%s/package.py" % (folder, name.replace("-", "_")))
        if src is None:
            src = tree.read("%s/%s/package.py" % (folder, name))
        if src is None:
            problems.append("%s: '%s': Spack has no package '%s'" % (where, text, name))
            continue
        versions, known = recipe(src)
        if version:
            numeric = [v for v, dep in versions.items() if re.match(r"^\d", v)]
            good = [v for v in numeric if not versions[v] and satisfies(v, version)]
            if not good:
                deprecated = [v for v in numeric if versions[v] and satisfies(v, version)]
                oldest = min((v for v in numeric if not versions[v]), key=vkey, default="none")
                problems.append("%s: '%s': no version of %s satisfies @%s%s (oldest not deprecated: %s)" % (
                    where, text, name, version, " but deprecated ones: " + ", ".join(deprecated) if deprecated
                    else "", oldest))
        for variant, value, sign in variants:
            if variant not in known:
                problems.append("%s: '%s': %s has no variant '%s' (it has: %s)" % (
                    where, text, name, variant, ", ".join(sorted(known))))
            elif sign == "=" and known[variant] is not None and value not in known[variant]:
                problems.append("%s: '%s': %s's variant %s takes %s, not '%s'" % (
                    where, text, name, variant, "/".join(sorted(known[variant])), value))


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    path = sys.argv[1]
    spack = find_spack()
    if spack is None:
        print("SKIP: no Spack checkout (set SPACK_ROOT to one): spack.yaml not checked")
        return SKIP
    import yaml

    with open(path, encoding="utf-8") as f:
        text = f.read()
    data = yaml.safe_load(text)
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        lib = os.path.join(spack.checkout_of("lib/spack", tmp), "lib", "spack")
        schema, validator, how, parse = spack_validator(lib)
        print("Spack schema from %s, checked with %s" % (spack.path, how))
        v = validator(schema)
        for e in sorted(v.iter_errors(data), key=lambda e: list(e.path)):
            problems.append("%s: schema: at %s: %s" % (path, "/".join(map(str, e.path)) or "top", e.message))
        recipes = find_recipes(spack)
        if recipes is None:
            print("no package recipes found (SPACK_PACKAGES_ROOT): package and variant names not checked")
        else:
            print("package recipes from %s/%s" % (recipes[0].path, recipes[1]))
        specs = []
        if isinstance(data, dict) and isinstance(data.get("spack"), dict):
            for s in data["spack"].get("specs") or []:
                if isinstance(s, str):
                    specs.append(s)
        lines = text.splitlines()
        for n, line in enumerate(lines, 1):
            m = re.match(r"^\s*-\s+(.*\S)\s*$", line)
            c = re.match(r"^#\s+-\s+(.*\S)\s*$", line)
            if c:
                check_spec(c.group(1), "%s:%d (comment)" % (path, n), recipes, problems, parse)
            elif m and not line.lstrip().startswith("#"):
                value = m.group(1)
                if value[0] in "'\"":
                    value = value[1:-1]
                if value in specs:
                    check_spec(value, "%s:%d" % (path, n), recipes, problems, parse)
        checked = len(specs)
    for p in problems:
        print(p)
    if problems:
        print("%d problem(s) in %s" % (len(problems), path))
        return 1
    print("%s: %d specs valid for this Spack" % (path, checked))
    return 0


if __name__ == "__main__":
    sys.exit(main())
