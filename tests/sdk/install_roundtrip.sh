#!/usr/bin/env bash
# The SDK round trip, as a plugin author would do it:
#   1. install the dpbo build into a fresh prefix P and check the layout: the headers installed
#      are exactly the plugin contract (core/contract/include/dpbo) and the BO toolkit
#      (core/bo/include/dpbo), no host header among them;
#   2. build sdk/examples/geometric-mechanism out of tree with find_package(dpbo) from P only;
#   3. check that a plugin including a host header (dpbo/host/*.hpp) does not compile against P;
#      install the example plugin into P and ask P/bin/dpbo about it (list, info, list --json);
#   4. the same for sdk/examples/record-objective, a record objective with the neighbour switch,
#      and audit DP-GIBO's claim on it with a tiny `dpbo audit` run;
#   5. the same for sdk/examples/zcdp-event, a new privacy event kind ("zcdp"), a mechanism that
#      emits it and an accountant that composes it: `dpbo account --event zcdp:...` and `dpbo run
#      --mechanism zcdp-gaussian --accountant zcdp-accountant` on the installed dpbo, their numbers checked
#      against Bun & Steinke's formula computed here, and the shipped accountants' answers to the
#      new kind (rdp composes its RDP curve, gdp refuses it by name).
# Usage: install_roundtrip.sh <dpbo build dir> <dpbo source dir>
# The environment variable CMAKE names the cmake to use (ctest passes the one that configured dpbo).
set -euo pipefail

if [[ $# -ne 2 ]]; then
    echo "usage: $0 <dpbo build dir> <dpbo source dir>" >&2
    exit 2
fi
build_dir=$(cd "$1" && pwd)
source_dir=$(cd "$2" && pwd)
example_dir="$source_dir/sdk/examples/geometric-mechanism"
cmake=${CMAKE:-cmake}

# Canonical, because dpbo prints plugin paths with symbolic links resolved.
work=$(readlink -f "$(mktemp -d "${TMPDIR:-/tmp}/dpbo-sdk-roundtrip.XXXXXX")")
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"
example_build="$work/example-build"
log="$work/log"
mkdir -p "$prefix" "$log"

# Only what this test installs may be found: no plugin directory, library path or package
# location inherited from the caller's environment.
unset DPBO_PLUGIN_PATH LD_LIBRARY_PATH CMAKE_PREFIX_PATH dpbo_DIR
# The installed dpbo's plugin manifest cache goes with the test's files, not into ~/.cache.
export XDG_CACHE_HOME="$work/cache"
exec </dev/null

seconds_since() {
    awk -v start="$1" -v now="$EPOCHREALTIME" 'BEGIN { printf "%.1f", now - start }'
}
stage_start=$EPOCHREALTIME
stage() {
    stage_start=$EPOCHREALTIME
    echo "== $*"
}
stage_done() {
    echo "   done in $(seconds_since "$stage_start") s"
}
check() {
    echo "-- check: $*"
}
fail() {
    echo "FAIL: $*" >&2
    exit 1
}
# The file the dynamic loader would use for libdpbo, with $ORIGIN and links resolved.
libdpbo_of() {
    local path
    path=$(ldd "$1" | awk '/libdpbo\.so/ {print $3}')
    if [[ -z "$path" || "$path" == "not" ]]; then
        echo "(not found)"
    else
        readlink -f "$path"
    fi
}
# Runs a command quietly into a log file; on failure shows the log and stops.
run_logged() {
    local name=$1
    shift
    if ! "$@" >"$log/$name.txt" 2>&1; then
        echo "---- output of: $*" >&2
        cat "$log/$name.txt" >&2
        fail "$name failed (command: $*)"
    fi
}

total_start=$EPOCHREALTIME

# ---------------------------------------------------------------------------------------------
stage "install $build_dir into $prefix"
run_logged install-dpbo "$cmake" --install "$build_dir" --prefix "$prefix"
stage_done

check "the installed layout: bin/dpbo, lib/libdpbo-cli.so, lib/libdpbo.so*, lib/dpbo/plugins/*.so, headers, CMake package"
[[ -x "$prefix/bin/dpbo" ]] || fail "$prefix/bin/dpbo is missing or not executable"
[[ -L "$prefix/lib/libdpbo.so" ]] || fail "$prefix/lib/libdpbo.so (the development link) is missing"
soname_link=$(find "$prefix/lib" -maxdepth 1 -name 'libdpbo.so.*' -type l | head -n 1)
[[ -n "$soname_link" ]] || fail "no soname link $prefix/lib/libdpbo.so.<major>"
[[ -f "$(readlink -f "$prefix/lib/libdpbo.so")" ]] || fail "$prefix/lib/libdpbo.so points nowhere"
shopt -s nullglob
in_tree_plugins=("$prefix"/lib/dpbo/plugins/*.so)
shopt -u nullglob
[[ ${#in_tree_plugins[@]} -gt 0 ]] || fail "no plugin installed in $prefix/lib/dpbo/plugins"
echo "   ${#in_tree_plugins[@]} in-tree plugin(s) installed"
check "the installed headers are the plugin contract and the BO toolkit, and nothing else"
contract_headers=$( (cd "$source_dir/core/contract/include" && find dpbo -type f -name '*.hpp';
                     cd "$source_dir/core/bo/include" && find dpbo -type f -name '*.hpp') | LC_ALL=C sort)
installed_headers=$(cd "$prefix/include" && find . -type f | sed 's|^\./||' | LC_ALL=C sort)
if [[ "$installed_headers" != "$contract_headers" ]]; then
    diff <(echo "$contract_headers") <(echo "$installed_headers") >&2 || true
    fail "$prefix/include differs from core/contract/include and core/bo/include (< only in the source, > only installed)"
fi
host_headers=(runner.hpp registry.hpp job_modules.hpp result_io.hpp)
[[ ! -e "$prefix/include/dpbo/host" ]] || fail "$prefix/include/dpbo/host exists; host headers must not be installed"
for header in "${host_headers[@]}"; do
    found=$(find "$prefix/include" -name "$header")
    [[ -z "$found" ]] || fail "host header $header is installed ($found); only the plugin contract may be"
done
for file in dpboConfig.cmake dpboConfigVersion.cmake dpboTargets.cmake dpboPlugin.cmake; do
    [[ -f "$prefix/lib/cmake/dpbo/$file" ]] || fail "$prefix/lib/cmake/dpbo/$file is missing"
done
grep -q 'dpbo::dpbo_armadillo' "$prefix/lib/cmake/dpbo/dpboTargets.cmake" ||
    fail "dpboTargets.cmake does not export dpbo::dpbo_armadillo"

check "the installed Python package imports with the system interpreter and finds the installed plugins"
shopt -s nullglob
packages=("$prefix"/lib/python3*/dist-packages/dpbo/__init__.py)
shopt -u nullglob
if [[ ${#packages[@]} -eq 0 ]]; then
    grep -q 'DPBO_PYTHON:BOOL=OFF' "$build_dir/CMakeCache.txt" || fail "no dpbo package installed under $prefix/lib/python3*/dist-packages"
    echo "   (built with -DDPBO_PYTHON=OFF: no package)"
else
    site=$(dirname "$(dirname "${packages[0]}")")
    PYTHONPATH="$site" /usr/bin/python3 - "$prefix" <<'PYTHON' || fail "the installed package does not import or find $prefix's plugins"
import os, sys
import dpbo
prefix = os.path.realpath(sys.argv[1])
assert os.path.realpath(dpbo.__file__).startswith(prefix), dpbo.__file__
files = {m["file"] for m in dpbo.modules("algorithm")}
assert files and all(os.path.realpath(f).startswith(prefix) for f in files), files
PYTHON
fi

installed_libdpbo=$(readlink -f "$prefix/lib/libdpbo.so")
check "the installed dpbo runs on the installed libdpbo, not the build tree's"
# bin/dpbo is a launcher linked to no dpbo library; it loads lib/libdpbo-cli.so, the commands.
[[ -f "$prefix/lib/libdpbo-cli.so" ]] || fail "$prefix/lib/libdpbo-cli.so (the commands bin/dpbo loads) is missing"
if ldd "$prefix/bin/dpbo" | grep -q 'libdpbo'; then
    fail "$prefix/bin/dpbo links a dpbo library; expected a launcher that loads lib/libdpbo-cli.so"
fi
resolved=$(libdpbo_of "$prefix/lib/libdpbo-cli.so")
[[ "$resolved" == "$installed_libdpbo" ]] ||
    fail "$prefix/lib/libdpbo-cli.so resolves libdpbo to '$resolved', expected $installed_libdpbo"
check "the probe program that reads plugin manifests is installed beside libdpbo and runs on it"
[[ -x "$prefix/lib/dpbo/dpbo-probe" ]] || fail "$prefix/lib/dpbo/dpbo-probe is missing or not executable"
resolved=$(libdpbo_of "$prefix/lib/dpbo/dpbo-probe")
[[ "$resolved" == "$installed_libdpbo" ]] ||
    fail "$prefix/lib/dpbo/dpbo-probe resolves libdpbo to '$resolved', expected $installed_libdpbo"

# ---------------------------------------------------------------------------------------------
stage "configure the example out of tree against $prefix"
run_logged configure-example "$cmake" -S "$example_dir" -B "$example_build" \
    -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_INSTALL_PREFIX="$prefix" \
    -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF -DCMAKE_BUILD_TYPE=Release
stage_done

check "find_package(dpbo) used the installed package"
found_dir=$(sed -n 's/^dpbo_DIR:PATH=//p' "$example_build/CMakeCache.txt")
[[ "$found_dir" == "$prefix/lib/cmake/dpbo" ]] ||
    fail "find_package(dpbo) found '$found_dir', expected $prefix/lib/cmake/dpbo"

stage "build the example"
run_logged build-example "$cmake" --build "$example_build" --parallel 2
stage_done

check "the example compiled without warnings"
if grep -q 'warning:' "$log/build-example.txt"; then
    grep 'warning:' "$log/build-example.txt" >&2
    fail "the example plugin compiled with warnings"
fi

check "the build-tree plugin finds the installed libdpbo (its RUNPATH names the libdpbo it linked)"
built_plugin="$example_build/mechanism-geometric.so"
[[ -f "$built_plugin" ]] || fail "$built_plugin was not built"
resolved=$(libdpbo_of "$built_plugin")
[[ "$resolved" == "$installed_libdpbo" ]] ||
    fail "$built_plugin resolves libdpbo to '$resolved', expected $installed_libdpbo"

stage "install the example into $prefix"
run_logged install-example "$cmake" --install "$example_build"
stage_done

installed_plugin="$prefix/lib/dpbo/plugins/mechanism-geometric.so"
check "the plugin was installed as $installed_plugin and finds libdpbo through \$ORIGIN/../.."
[[ -f "$installed_plugin" ]] || fail "$installed_plugin was not installed"
runpath=$(readelf -d "$installed_plugin" | sed -n 's/.*R\(UN\)\{0,1\}PATH.*\[\(.*\)\]/\2/p')
# First $ORIGIN/../.., then the directory of the libdpbo it was built against (for its build tree,
# which has no lib/ two levels up); never an empty entry, which the loader reads as the working folder.
[[ "$runpath" == "\$ORIGIN/../..:$(dirname "$installed_libdpbo")" ]] ||
    fail "$installed_plugin has RUNPATH '$runpath', expected '\$ORIGIN/../..:$(dirname "$installed_libdpbo")'"
resolved=$(libdpbo_of "$installed_plugin")
[[ "$resolved" == "$installed_libdpbo" ]] ||
    fail "$installed_plugin resolves libdpbo to '$resolved', expected $installed_libdpbo"

# libstdc++ declares std with default visibility, so its template instantiations stay exported
# whatever the plugin's flags; everything else must be hidden except the entry symbol.
check "only the entry symbol dpbo_plugin is exported (hidden visibility)"
exported=$(nm -D --defined-only -C "$installed_plugin" | cut -d' ' -f3- |
    grep -Ev '(^|[ (<])(std|__gnu_cxx)::|^_init$|^_fini$' || true)
[[ "$exported" == "dpbo_plugin" ]] ||
    fail "$installed_plugin exports '$(echo "$exported" | tr '\n' ';')', expected only dpbo_plugin"

# ---------------------------------------------------------------------------------------------
# A plugin author who reaches for a host header must get a compile error, not a header that
# happens to match the host's build today.
stage "an out-of-tree plugin that includes a host header does not compile"
host_probe="$work/host-header-probe"
mkdir -p "$host_probe/src"
{
    echo 'cmake_minimum_required(VERSION 3.25)'
    echo 'project(host_header_probe LANGUAGES CXX)'
    echo 'find_package(dpbo REQUIRED)'
    for header in "${host_headers[@]}"; do
        stem=${header%.hpp}
        printf '#include <dpbo/plugin.hpp>\n#include <dpbo/host/%s>\n' "$header" >"$host_probe/src/$stem.cpp"
        echo "dpbo_add_plugin(probe-$stem SOURCES src/$stem.cpp NO_INSTALL)"
    done
} >"$host_probe/CMakeLists.txt"
run_logged configure-host-probe "$cmake" -S "$host_probe" -B "$host_probe/build" \
    -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF -DCMAKE_BUILD_TYPE=Release
for header in "${host_headers[@]}"; do
    stem=${header%.hpp}
    check "#include <dpbo/host/$header> is not found"
    if LC_ALL=C "$cmake" --build "$host_probe/build" --target "probe-$stem" >"$log/host-probe-$stem.txt" 2>&1; then
        fail "an out-of-tree plugin including <dpbo/host/$header> compiled against $prefix"
    fi
    grep -q "dpbo/host/$header: No such file or directory" "$log/host-probe-$stem.txt" || {
        cat "$log/host-probe-$stem.txt" >&2
        fail "the plugin including <dpbo/host/$header> failed for another reason than the missing header"
    }
done
stage_done

# ---------------------------------------------------------------------------------------------
stage "ask the installed dpbo about the plugin"
dpbo="$prefix/bin/dpbo"

check "'dpbo list' lists geometric, from $installed_plugin"
run_logged list "$dpbo" list
grep -Eq '^[[:space:]]+geometric[[:space:]]' "$log/list.txt" || {
    cat "$log/list.txt" >&2
    fail "'dpbo list' does not list the module 'geometric'"
}
grep -qF "$installed_plugin" "$log/list.txt" || {
    cat "$log/list.txt" >&2
    fail "'dpbo list' does not name the file $installed_plugin"
}

check "'dpbo info geometric' shows its epsilon parameter"
run_logged info "$dpbo" info geometric
grep -Eq '^[[:space:]]+epsilon[[:space:]]' "$log/info.txt" || {
    cat "$log/info.txt" >&2
    fail "'dpbo info geometric' does not show the parameter 'epsilon'"
}

check "'dpbo list --json' is valid JSON and holds geometric from $installed_plugin"
# stdout alone: the JSON document must not depend on what goes to stderr.
"$dpbo" list --json >"$log/list-json.txt" 2>"$log/list-json-stderr.txt" || {
    status=$?
    cat "$log/list-json-stderr.txt" >&2
    fail "'dpbo list --json' exited with status $status"
}
python3 - "$log/list-json.txt" "$installed_plugin" <<'PYTHON' || fail "'dpbo list --json' check failed"
import json, sys
text = open(sys.argv[1]).read()
try:
    document = json.loads(text)
except json.JSONDecodeError as error:
    sys.exit(f"'dpbo list --json' is not valid JSON: {error}")
# Whatever the document's shape, the module must appear as an object naming it and its file.
def objects(node):
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from objects(value)
    elif isinstance(node, list):
        for value in node:
            yield from objects(value)
matches = [o for o in objects(document) if o.get("name") == "geometric"]
if not matches:
    sys.exit("'dpbo list --json' has no object with \"name\": \"geometric\"")
if not any(o.get("kind") == "mechanism" for o in matches):
    sys.exit("'dpbo list --json' does not give 'geometric' the kind \"mechanism\"")
if not any(sys.argv[2] in map(str, o.values()) for o in matches):
    sys.exit(f"the 'geometric' entry of 'dpbo list --json' does not name {sys.argv[2]}")
PYTHON
stage_done

# ---------------------------------------------------------------------------------------------
record_dir="$source_dir/sdk/examples/record-objective"
record_build="$work/record-build"
stage "configure, build and install the record objective example out of tree against $prefix"
run_logged configure-record "$cmake" -S "$record_dir" -B "$record_build" \
    -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_INSTALL_PREFIX="$prefix" \
    -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF -DCMAKE_BUILD_TYPE=Release
run_logged build-record "$cmake" --build "$record_build" --parallel 2
if grep -q 'warning:' "$log/build-record.txt"; then
    grep 'warning:' "$log/build-record.txt" >&2
    fail "the record objective example compiled with warnings"
fi
run_logged install-record "$cmake" --install "$record_build"
stage_done

record_plugin="$prefix/lib/dpbo/plugins/objective-pseudo-huber-location.so"
check "'dpbo list' lists pseudo-huber-location, from $record_plugin"
run_logged list-record "$dpbo" list --kind objective
grep -Eq '^[[:space:]]+pseudo-huber-location[[:space:]]' "$log/list-record.txt" || {
    cat "$log/list-record.txt" >&2
    fail "'dpbo list' does not list the module 'pseudo-huber-location'"
}
grep -qF "$record_plugin" "$log/list-record.txt" || fail "'dpbo list' does not name the file $record_plugin"

check "'dpbo info pseudo-huber-location' shows the neighbour switch"
run_logged info-record "$dpbo" info pseudo-huber-location
for key in neighbour_record neighbour_value records; do
    grep -Eq "^[[:space:]]+$key[[:space:]]" "$log/info-record.txt" || {
        cat "$log/info-record.txt" >&2
        fail "'dpbo info pseudo-huber-location' does not show the parameter '$key'"
    }
done

# The audit runs end to end on the third-party objective: D and D' built through the switch, a
# claim read from DP-GIBO's statement, and the verdict the secure samplers must earn: not refuted.
check "'dpbo audit --algorithm dp-gibo --objective pseudo-huber-location' does not refute the claim"
status=0
"$dpbo" audit --algorithm dp-gibo --objective pseudo-huber-location --set objective.dim=2 \
    --set objective.records=8 --set algorithm.iterations=1 --neighbour objective.neighbour_record=0 \
    --runs 200 --seed 1 --json >"$log/audit-record.txt" 2>"$log/audit-record-stderr.txt" || status=$?
if [[ $status -ne 0 ]]; then
    cat "$log/audit-record-stderr.txt" "$log/audit-record.txt" >&2
    fail "'dpbo audit' on the record objective exited with status $status (3: claim refuted)"
fi
python3 - "$log/audit-record.txt" <<'PYTHON' || fail "'dpbo audit --json' on the record objective: unexpected output"
import json, sys
report = json.load(open(sys.argv[1]))
assert report["claim"]["headline"] == "1-GDP", report["claim"]
assert report["subject"]["objective"] == "pseudo-huber-location", report["subject"]
assert report["runs_per_world"] == 200
assert report["refuted"] is False, report["lower_bound"]
PYTHON
stage_done

# ---------------------------------------------------------------------------------------------
# A new privacy notion with no change to the host or the core: the event kind, its mechanism and its
# accountant are three plugins of one out-of-tree project.
zcdp_dir="$source_dir/sdk/examples/zcdp-event"
zcdp_build="$work/zcdp-build"
stage "configure, build and install the zCDP example (event kind, mechanism, accountant) out of tree against $prefix"
run_logged configure-zcdp "$cmake" -S "$zcdp_dir" -B "$zcdp_build" \
    -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_INSTALL_PREFIX="$prefix" \
    -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF -DCMAKE_BUILD_TYPE=Release
run_logged build-zcdp "$cmake" --build "$zcdp_build" --parallel 2
if grep -q 'warning:' "$log/build-zcdp.txt"; then
    grep 'warning:' "$log/build-zcdp.txt" >&2
    fail "the zCDP example compiled with warnings"
fi
run_logged install-zcdp "$cmake" --install "$zcdp_build"
stage_done

for plugin in event-zcdp mechanism-zcdp-gaussian accountant-zcdp; do
    file="$prefix/lib/dpbo/plugins/$plugin.so"
    check "$plugin was installed and exports only dpbo_plugin"
    [[ -f "$file" ]] || fail "$file was not installed"
    exported=$(nm -D --defined-only -C "$file" | cut -d' ' -f3- |
        grep -Ev '(^|[ (<])(std|__gnu_cxx)::|^_init$|^_fini$' || true)
    [[ "$exported" == "dpbo_plugin" ]] || fail "$file exports '$(echo "$exported" | tr '\n' ';')', expected only dpbo_plugin"
done

stage "the installed dpbo with the new event kind"
check "'dpbo list --kind event' lists zcdp; 'dpbo info zcdp' shows rho"
run_logged list-events "$dpbo" list --kind event
grep -Eq '^[[:space:]]+zcdp[[:space:]]' "$log/list-events.txt" || {
    cat "$log/list-events.txt" >&2
    fail "'dpbo list --kind event' does not list the kind 'zcdp'"
}
run_logged info-zcdp "$dpbo" info zcdp
grep -Eq '^[[:space:]]+rho[[:space:]]' "$log/info-zcdp.txt" || {
    cat "$log/info-zcdp.txt" >&2
    fail "'dpbo info zcdp' does not show the parameter 'rho'"
}

check "'dpbo account --accountant zcdp-accountant --event zcdp:rho=0.1x10 --delta 1e-5': ε = ρ + 2√(ρ log(1/δ)) at ρ = 1"
run_logged account-zcdp "$dpbo" account --accountant zcdp-accountant --event zcdp:rho=0.1x10 --delta 1e-5 --epsilon 3 --json
check "'dpbo account --accountant rdp' composes the same events through their RDP curve, never looser"
run_logged account-rdp "$dpbo" account --accountant rdp --event zcdp:rho=0.1x10 --delta 1e-5 --json
python3 - "$log/account-zcdp.txt" "$log/account-rdp.txt" <<'PYTHON' || fail "'dpbo account' on zcdp events: unexpected numbers"
import json, math, sys
zcdp, rdp = (json.load(open(path)) for path in sys.argv[1:3])
rho, delta = 10 * 0.1, 1e-5
# Bun & Steinke 2016, Prop. 1.3, and its inverse at ε = 3.
expected_epsilon = rho + 2 * math.sqrt(rho * math.log(1 / delta))
expected_delta = math.exp(-(3 - rho) ** 2 / (4 * rho))
answers = {a["given"]: a for a in zcdp["epsilon_delta"]}
epsilon, delta_at_3 = answers["delta"]["epsilon"], answers["epsilon"]["delta"]
assert zcdp["accountant"] == "zcdp-accountant", zcdp
assert abs(epsilon - expected_epsilon) <= 1e-12 * expected_epsilon, (epsilon, expected_epsilon)
assert epsilon >= expected_epsilon * (1 - 1e-15), "the accountant reports less than the formula"
assert abs(delta_at_3 - expected_delta) <= 1e-12 * expected_delta, (delta_at_3, expected_delta)
event = zcdp["events"][0]
assert event["kind"] == "zcdp" and event["parameters"] == {"rho": 0.1} and event["repetitions"] == 10, event
assert event["describes"] == "zcdp (rho = 0.1) x 10", event
# The rdp accountant never heard of zcdp; its conversion of the curve ρα is at least as tight.
rdp_epsilon = rdp["epsilon_delta"][0]["epsilon"]
assert rdp["accountant"] == "rdp" and 0 < rdp_epsilon <= epsilon, (rdp_epsilon, epsilon)
print(f"zcdp: epsilon = {epsilon} (formula {expected_epsilon}); rdp: {rdp_epsilon}")
PYTHON

check "a shipped accountant that cannot compose zcdp refuses it by name"
status=0
"$dpbo" account --accountant gdp --event zcdp:rho=0.1 >"$log/account-gdp.txt" 2>&1 || status=$?
[[ $status -eq 2 ]] || { cat "$log/account-gdp.txt" >&2; fail "'dpbo account --accountant gdp --event zcdp:...' exited $status, expected 2"; }
for part in "cannot account a 'zcdp' event" "'zcdp' offers only an RDP curve" "use --accountant rdp"; do
    grep -qF "$part" "$log/account-gdp.txt" || { cat "$log/account-gdp.txt" >&2; fail "the refusal does not say \"$part\""; }
done

check "'dpbo run --mechanism zcdp-gaussian --accountant zcdp-accountant': the one release of the 20 values at ρ = 0.05"
run_logged run-zcdp "$dpbo" run --algorithm random-search --objective branin --mechanism zcdp-gaussian \
    --set mechanism.rho=0.05 --set algorithm.value_sensitivity=0.1 --set algorithm.budget=20 \
    --accountant zcdp-accountant --seed 3 --out "$work/zcdp-run"
python3 - "$work/zcdp-run/result.json" <<'PYTHON' || fail "the zCDP run's result: unexpected privacy statement"
import json, math, sys
result = json.load(open(sys.argv[1]))
assert result["job"]["accountant"]["name"] == "zcdp-accountant", result["job"]
privacy = json.dumps(result["privacy"], ensure_ascii=False)
rho, delta = 0.05, 1e-5  # random search releases its k values as one vector: one event
expected = rho + 2 * math.sqrt(rho * math.log(1 / delta))
# The claim carries the accountant's composition and its (ε, δ) equivalent at the report δ.
def pairs(node):
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "equivalent_epsilon_delta":
                yield from value
            else:
                yield from pairs(value)
    elif isinstance(node, list):
        for value in node:
            yield from pairs(value)
found = [(p["epsilon"], p["delta"]) for p in pairs(result["privacy"]) if abs(p["delta"] - delta) <= 1e-20]
assert found, f"no (epsilon, 1e-05) equivalent in {privacy}"
assert all(abs(p[0] - expected) <= 1e-12 * expected for p in found), (found, expected)
assert "rho = Σ r·ρ = 0.05" in privacy, privacy
print(f"run: epsilon = {found[0][0]} at delta = {delta} (formula {expected})")
PYTHON
stage_done

# ---- figures as data: begin (a block of its own: sdk/examples/figure-algorithm) --------------------
# An out-of-tree algorithm declares a figure in its result (a trace column of its own, log y); the
# installed `dpbo report` draws it, titled and labelled as declared, with no change to dpbo.
figure_dir="$source_dir/sdk/examples/figure-algorithm"
figure_build="$work/figure-build"
stage "configure, build and install the figure algorithm example out of tree against $prefix"
run_logged configure-figure "$cmake" -S "$figure_dir" -B "$figure_build" \
    -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_INSTALL_PREFIX="$prefix" \
    -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF -DCMAKE_BUILD_TYPE=Release
run_logged build-figure "$cmake" --build "$figure_build" --parallel 2
if grep -q 'warning:' "$log/build-figure.txt"; then
    grep 'warning:' "$log/build-figure.txt" >&2
    fail "the figure algorithm example compiled with warnings"
fi
run_logged install-figure "$cmake" --install "$figure_build"
stage_done

check "'dpbo report' draws the figure shrinking-box declares"
run_logged run-figure "$dpbo" run --algorithm shrinking-box --objective quadratic --set algorithm.steps=6 \
    --seed 1 --repeat 2 --out "$work/shrinking"
run_logged report-figure "$dpbo" report "$work/shrinking" --out "$work/shrinking.html"
python3 - "$work/shrinking.html" "$work/shrinking" <<'PYTHON' || fail "'dpbo report' did not draw shrinking-box's declared figure"
import csv, json, re, sys
page = open(sys.argv[1]).read()
figures = [json.loads(m) for m in re.findall(r'<script type="application/json" class="figure-data">(.*?)</script>', page, re.S)]
drawn = [f for f in figures if f["title"] == "Shrinking box on shrinking: width of the box per step"]
assert drawn, [f["title"] for f in figures]
figure = drawn[0]
assert figure["y_label"] == "box width [fraction of the space, log scale]", figure["y_label"]
assert figure["log_y"] is True
rows = list(csv.DictReader(open(sys.argv[2] + "/repeat-001/trace.csv")))
first = [s for s in figure["series"] if s["kind"] == "repeat" and s["repeat"] == 1][0]
assert first["y"] == [float(r["box_width"]) for r in rows], first["y"]
assert "<text>Shrinking box on shrinking: width of the box per step</text>" in page
PYTHON
stage_done
# ---- figures as data: end ---------------------------------------------------------------------------

echo "PASS: SDK round trip in $(seconds_since "$total_start") s"
