#!/bin/sh
# Prints the module `wrap` runs: the wrap command bundled (cli/wrap/main.ts and worker.ts, a few
# files instead of ~50 modules: a pre-commit hook pays start-up on every commit), built on first use
# into .cache/wrap/<hash of the sources>/ of this checkout, and rebuilt when a source changes. When
# it cannot be built (no `deno bundle`, a read-only checkout), the sources themselves.
#
#   cli/wrap/bundle.sh [DENO COMMAND...]      (default: deno)
#
# The deno.json task `wrap` runs it; bin/wrap sources it (WRAP_BUNDLE_SOURCED=1) and calls
# wrap_bundle_entry, which sets wrap_entry, to spare the processes. The check starts no process (a
# pre-commit hook pays it on every commit): the bundle is fresh while every module it was built from
# (its `inputs.sh`, listed at build time; without that list, every file and folder of cli/ and lib/),
# deno.json, deno.lock and this script (how it is built) is older than .cache/wrap/current
# (written with the time the sources were hashed, before the build, so a change made during a build
# is seen at the next run; "older", not "not newer", so a shell whose test sees whole seconds only
# rehashes rather than missing a change made in the same second). The build itself runs here, outside the sandbox;
# `wrap` then runs with its own narrow permissions.

# Whether PATH (a file, or a folder and all below it but dot files) is not older than MARK: changed,
# added, removed or renamed since MARK was written. The shell's own `test`, no `find` to start.
wrap_bundle_changed() {
  [ -e "$1" ] || return 1
  [ "$1" -ot "$2" ] || return 0
  { [ -d "$1" ] && [ ! -h "$1" ]; } || return 1
  for _path in "$1"/*; do
    wrap_bundle_changed "$_path" "$2" && return 0
  done
  return 1
}

# Whether a module the bundle was built from (the list INPUTS, a script setting
# wrap_bundle_inputs to their paths from ROOT, one a line) is gone or not older than MARK. Only
# those can change the bundle: a new import changes the module that imports it. Sourced, not read
# line by line: the shell's `read` takes a file one byte (one system call) at a time.
wrap_bundle_inputs_changed() {
  wrap_bundle_inputs=
  # shellcheck disable=SC1090
  . "$2" || return 0
  [ -n "$wrap_bundle_inputs" ] || return 0
  for _input in $wrap_bundle_inputs; do
    [ -f "$1/$_input" ] && [ "$1/$_input" -ot "$3" ] || return 0
  done
  return 1
}

# Sets wrap_entry to the module to run for the checkout ROOT, building it with DENO COMMAND if needed.
wrap_bundle_entry() {
  _root=$1
  shift
  _cache=$_root/.cache/wrap
  if [ -f "$_cache/current" ]; then
    read -r _key <"$_cache/current" || _key=
    if [ -n "$_key" ] && [ -f "$_cache/$_key/main.js" ] &&
      ! wrap_bundle_changed "$_root/deno.json" "$_cache/current" &&
      ! wrap_bundle_changed "$_root/deno.lock" "$_cache/current" &&
      ! wrap_bundle_changed "$_root/cli/wrap/bundle.sh" "$_cache/current" &&
      if [ -f "$_cache/$_key/inputs.sh" ]; then
        ! wrap_bundle_inputs_changed "$_root" "$_cache/$_key/inputs.sh" "$_cache/current"
      else
        ! wrap_bundle_changed "$_root/cli" "$_cache/current" && ! wrap_bundle_changed "$_root/lib" "$_cache/current"
      fi; then
      wrap_entry=$_cache/$_key/main.js
      return 0
    fi
  fi
  _sources=$_root/cli/wrap/main.ts
  if ! mkdir -p "$_cache" 2>/dev/null; then
    wrap_entry=$_sources
    return 0
  fi
  _mark=$_cache/mark.$$
  if ! : >"$_mark" 2>/dev/null; then
    wrap_entry=$_sources
    return 0
  fi
  # The key: every source file's name and bytes (sorted, so the same tree gives the same key).
  if command -v sha256sum >/dev/null 2>&1; then _hash=sha256sum
  elif command -v shasum >/dev/null 2>&1; then _hash="shasum -a 256"
  else _hash=cksum; fi
  # shellcheck disable=SC2086
  _key=$(
    cd "$_root" &&
      find cli lib deno.json deno.lock -type f ! -name '*.md' 2>/dev/null | LC_ALL=C sort | tr '\n' '\0' |
      xargs -0 $_hash | $_hash | cut -c1-16 | tr -d ' '
  )
  if [ ! -f "$_cache/$_key/main.js" ]; then
    _tmp=$_cache/build.$$
    rm -rf "$_tmp"
    # gettext-parser (the MO compiler's) stays outside: wrap never loads it, and bundled it would
    # bring Node's module loader into every start.
    # Minified (names kept, for error names and stack traces): every start pays for each byte it
    # loads, V8's code cache or not (bench/README.md#wrap). From the checkout itself, so that the
    # same sources give the same bundle whatever directory the first run came from.
    if ! (cd "$_root" && "$@" bundle --quiet --platform deno --code-splitting --external gettext-parser \
      --minify --keep-names --sourcemap=external \
      --config deno.json --outdir ".cache/wrap/build.$$" cli/wrap/main.ts cli/wrap/worker.ts) \
      >/dev/null 2>&1 || [ ! -f "$_tmp/main.js" ]; then
      rm -rf "$_tmp" "$_mark"
      wrap_entry=$_sources
      return 0
    fi
    # The modules it was built from, as the source maps name them from .cache/wrap/build.N/ (what
    # the next runs' check looks at; the maps themselves are not kept), as a script the check
    # sources: only when every name is plain (letters, digits, `_./-`), so none can be read as
    # shell; else the check falls back to the walk over cli/ and lib/.
    if grep -ho '"sources": *\[[^]]*\]' "$_tmp"/*.js.map 2>/dev/null | sed 's/^"sources": *\[//; s/\]$//' |
      tr ',' '\n' | sed 's/^ *"//; s/" *$//; s|^\(\.\./\)*||' | grep '^[a-z][^ ]*\.ts$' | LC_ALL=C sort -u >"$_tmp/inputs" &&
      [ -s "$_tmp/inputs" ] && ! LC_ALL=C grep -q '[^A-Za-z0-9_./-]' "$_tmp/inputs"; then
      { printf '%s\n' "# The modules this bundle was built from (cli/wrap/bundle.sh sources it)." "wrap_bundle_inputs='" &&
        cat "$_tmp/inputs" && printf "'\n"; } >"$_tmp/inputs.sh" || rm -f "$_tmp/inputs.sh"
    fi
    rm -f "$_tmp/inputs" "$_tmp"/*.js.map
    # Another run may have built the same key meanwhile: either copy is the same.
    mv "$_tmp" "$_cache/$_key" 2>/dev/null || rm -rf "$_tmp"
  fi
  # current says which build is in use; its time is the mark's, taken before the sources were read.
  printf '%s\n' "$_key" >"$_cache/key.$$" && touch -r "$_mark" "$_cache/key.$$" &&
    mv -f "$_cache/key.$$" "$_cache/current" || true
  rm -f "$_mark" "$_cache/key.$$"
  # Left-over builds of older sources: kept the last few, so switching branches does not rebuild.
  # shellcheck disable=SC2012
  ls -t "$_cache" 2>/dev/null | grep -v -e '^current$' -e '^mark\.' -e '^build\.' -e '^key\.' -e '^layout-votes\.json' | tail -n +6 |
    while IFS= read -r old; do rm -rf "${_cache:?}/$old"; done
  wrap_entry=$_cache/$_key/main.js
}

if [ -z "${WRAP_BUNDLE_SOURCED:-}" ]; then
  set -eu
  _self=$0
  [ $# -gt 0 ] || set -- deno
  # Run from the checkout (as the task runs it), the path is relative: `$(…)` in a deno task splits
  # on blanks, and the checkout's own path may hold some.
  case $_self in
    cli/wrap/bundle.sh | ./cli/wrap/bundle.sh) _top=. ;;
    */*) _top=$(cd "${_self%/*}/../.." && pwd) ;;
    *) _top=$(cd ../.. && pwd) ;;
  esac
  [ "$_top" != "$PWD" ] || _top=.
  wrap_bundle_entry "$_top" "$@"
  printf '%s\n' "$wrap_entry"
fi
