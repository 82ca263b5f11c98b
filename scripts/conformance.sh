#!/usr/bin/env bash
# Conformance: runs Futhark's own test programs and the diku-dk libraries'
# tests (../shared, never copied here) through `futmlir test`, one process
# per file, and compares the passing files with the expectation files in
# tests/conformance/<list>.<backend>.pass.
#
#   scripts/conformance.sh [interp|cpu] [--bless] [--expected-only] [--list NAME]... [-j N] [--timeout S]
#
# Lists: runnable (lists/runnable.txt minus the programs that use AD or
# accumulators, issue 27's), negative (lists/negative.txt: must be
# rejected with an error matching the test's regex), libs (the libraries'
# *_tests.fut), ad (ad/*.fut, accs/*.fut but accs/intrinsics.fut, which
# other files import, and the programs of lists/runnable.txt that the
# runnable list leaves out for using AD or accumulators). Without --list
# the script runs runnable, negative and libs. A file passes when its `futmlir test` run has no failing
# case and at least one passing one. For each list it prints `P/N files
# pass (X%)` (and the cases, for libs), then the failing files with their
# first error line. It fails when a file of the expectation file fails;
# files that pass and are not listed are reported as new (`--bless` writes
# them in). `--expected-only` runs only the listed files (CI's regression
# check, a fraction of the time of the whole run).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
backend=interp
bless=0
expected_only=0
jobs=$(nproc)
timeout_s=${FUTMLIR_CONFORMANCE_TIMEOUT:-120}
# Every pass's IR is verified and round-tripped through its text, in a
# release build too (Note [Round trip after each pass]); set them to 0 to
# time the compiler alone.
export FUTMLIR_VERIFY_EACH=${FUTMLIR_VERIFY_EACH:-1}
export FUTMLIR_ROUNDTRIP_EACH=${FUTMLIR_ROUNDTRIP_EACH:-1}
lists=()
while [ $# -gt 0 ]; do
  case "$1" in
    interp|cpu|cuda) backend=$1 ;;
    --bless) bless=1 ;;
    --expected-only) expected_only=1 ;;
    --list) lists+=("$2"); shift ;;
    -j) jobs=$2; shift ;;
    --timeout) timeout_s=$2; shift ;;
    *) echo "usage: $0 [interp|cpu] [--bless] [--expected-only] [--list runnable|negative|libs|ad]... [-j N] [--timeout S]" >&2; exit 2 ;;
  esac
  shift
done
[ ${#lists[@]} -gt 0 ] || lists=(runnable negative libs)
shared=${FUTMLIR_SHARED:-$root/../shared}
tests=$shared/futhark-tests
libs=$shared/futhark-libs
if [ ! -d "$tests" ] || [ ! -d "$libs" ]; then
  echo "error: $shared/futhark-tests or futhark-libs not found (set FUTMLIR_SHARED)" >&2
  exit 2
fi
if [ -z "${FUTMLIR:-}" ]; then
  cargo build --release -q
fi
bin=${FUTMLIR:-$root/target/release/futmlir}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Whether the file $shared/$1 belongs to AD and accumulators (issue 27):
# their folders, and the programs that call vjp/jvp or use the intrinsics'
# accumulators (directly or through accs/intrinsics.fut, which wraps them).
uses_ad() {
  case "$1" in futhark-tests/ad/*|futhark-tests/accs/*) return 0 ;; esac
  grep -qE '\b(vjp|jvp|vjp2|jvp2)\b|"intrinsics"|intrinsics\.|accs/intrinsics"' "$shared/$1"
}

# The files of a list, relative to $shared, one a line.
list_files() {
  case "$1" in
    runnable)
      sed 's|^|futhark-tests/|' "$tests/lists/runnable.txt" | while read -r f; do
        if ! uses_ad "$f"; then echo "$f"; fi
      done ;;
    ad)
      {
        (cd "$shared" && ls futhark-tests/ad/*.fut futhark-tests/accs/*.fut) | grep -vFx futhark-tests/accs/intrinsics.fut
        sed 's|^|futhark-tests/|' "$tests/lists/runnable.txt" | while read -r f; do
          if uses_ad "$f"; then echo "$f"; fi
        done
      } | grep -vFx futhark-tests/accs/intrinsics.fut | sort -u ;;
    negative) sed 's|^|futhark-tests/|' "$tests/lists/negative.txt" ;;
    libs) (cd "$shared" && find futhark-libs -name '*_tests.fut' | sort) ;;
    *) echo "error: unknown list $1" >&2; exit 2 ;;
  esac
}

# Runs one file; writes "STATUS passed failed skipped<TAB>first error" to $work/res/<n>.
run_one() {
  local n=$1 f=$2 out rc
  out=$(cd "$shared" && timeout "$timeout_s" "$bin" test --backend="$backend" "$f" 2>&1) && rc=0 || rc=$?
  local summary p=0 fl=0 s=0 status first
  summary=$(printf '%s\n' "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' | tail -1 || true)
  if [ -n "$summary" ]; then
    read -r p _ fl _ s _ <<<"$summary"
  fi
  if [ "$rc" = 124 ]; then
    status=timeout; first="timed out after ${timeout_s}s"
  elif [ -z "$summary" ]; then
    status=fail; first=$(printf '%s\n' "$out" | head -1)
  elif [ "$fl" = 0 ] && [ "$p" -gt 0 ]; then
    status=pass; first=""
  elif [ "$fl" = 0 ]; then
    status=skip; first="every case skipped"
  else
    status=fail
    # The first failure, with the line after it when that line only says
    # "compilation failed:" (the message follows).
    first=$(printf '%s\n' "$out" | grep -v -E '^[0-9]+ passed, ' | awk 'NR==1{l=$0; if (l ~ /:$/) {getline n; sub(/^ +/, "", n); l=l " " n}; print l; exit}')
  fi
  printf '%s %s %s %s\t%s\n' "$status" "$p" "$fl" "$s" "$first" >"$work/res/$n"
}
export -f run_one
export bin backend shared timeout_s work

status=0
mkdir -p tests/conformance
for list in "${lists[@]}"; do
  expect=tests/conformance/$list.$backend.pass
  touch "$expect"
  list_files "$list" >"$work/all"
  if [ "$expected_only" = 1 ]; then
    grep -Fxf "$expect" "$work/all" >"$work/files" || true
  else
    cp "$work/all" "$work/files"
  fi
  rm -rf "$work/res"; mkdir -p "$work/res"
  nl -ba -w1 -s' ' "$work/files" | xargs -P "$jobs" -L1 bash -c 'run_one "$0" "$1"'
  total=0; passed=0; skipped=0; cases_p=0; cases_n=0
  : >"$work/passing"; : >"$work/failing"
  n=0
  while read -r f; do
    n=$((n + 1)); total=$((total + 1))
    IFS=$'\t' read -r head first <"$work/res/$n"
    read -r st p fl s <<<"$head"
    cases_p=$((cases_p + p)); cases_n=$((cases_n + p + fl + s))
    if [ "$st" = pass ]; then
      passed=$((passed + 1)); echo "$f" >>"$work/passing"
    else
      if [ "$st" = skip ]; then skipped=$((skipped + 1)); fi
      printf '%s: %s: %s\n' "$f" "$st" "$first" >>"$work/failing"
    fi
  done <"$work/files"
  pct=$(awk -v p=$passed -v t=$total 'BEGIN{printf "%.1f", t ? 100*p/t : 0}')
  echo "== $list ($backend): $passed/$total files pass ($pct%); cases: $cases_p of $cases_n pass"
  # A file whose every case is skipped (`compiled input` on the
  # interpreter, a `no_<backend>` tag, or a feature not supported yet) is
  # not a pass; the rate over the files with a case run is shown beside.
  if [ "$skipped" -gt 0 ]; then
    ran=$((total - skipped))
    pct_ran=$(awk -v p=$passed -v t=$ran 'BEGIN{printf "%.1f", t ? 100*p/t : 0}')
    echo "   $skipped files skip every case; of the $ran others, $passed pass ($pct_ran%)"
  fi
  if [ -s "$work/failing" ]; then sed 's/^/  /' "$work/failing"; fi
  regressed=$(grep -Fxvf "$work/passing" "$expect" | grep -Fxf "$work/files" || true)
  new=$(grep -Fxvf "$expect" "$work/passing" || true)
  if [ -n "$new" ]; then
    echo "-- newly passing in $list ($backend), not in $expect:"
    printf '%s\n' "$new" | sed 's/^/  /'
  fi
  if [ -n "$regressed" ]; then
    echo "-- REGRESSED in $list ($backend): listed in $expect but failing:"
    printf '%s\n' "$regressed" | sed 's/^/  /'
    status=1
  fi
  if [ "$bless" = 1 ]; then
    if [ "$expected_only" = 1 ]; then
      echo "error: --bless needs the whole list (not --expected-only)" >&2; exit 2
    fi
    sort "$work/passing" >"$expect"
    echo "-- wrote $expect ($passed files)"
  fi
done
exit $status
