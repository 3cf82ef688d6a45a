#!/usr/bin/env bash
# The mocha suite (the same files as .mocharc.json's spec) run as one mocha process per test folder,
# for CI's Node 24 pass. Run as a single process, Node 24.21 ends the whole suite with a segmentation
# fault in glibc's exit handlers (_dl_fini) after every test has passed; no folder alone does. The
# exit code of each process counts, and the closing lines repeat each folder's failures (CI keeps only
# the end of the output) and sum what they printed.
set -uo pipefail
cd "$(dirname "$0")/.."
node esbuild.mjs || exit 1
status=0 passed=0 failed=0
failures=$(mktemp)
folders=$(find test/mock-node test/extension test/clients test/bench test/demo test/package test/docs -name '*.test.ts' -printf '%h\n' | sort -u)
for folder in $folders; do
  echo "== $folder"
  out=$(mktemp)
  node node_modules/mocha/bin/mocha.js --no-config --require tsx/cjs --extension ts --timeout 20000 --exit "$folder/*.test.ts" 2>&1 | tee "$out"
  code=${PIPESTATUS[0]}
  [ "$code" -ne 0 ] && { echo "mocha exited with $code in $folder"; status=1; }
  if grep -qE '^\s+[0-9]+ failing' "$out"; then
    { echo "== $folder"; sed 's/\x1b\[[0-9;]*m//g' "$out" | sed -n '/^ *[0-9][0-9]* failing/,$p' | head -c 6000; echo; } >> "$failures"
  elif [ "$code" -ne 0 ]; then
    { echo "== $folder: mocha exited with $code"; tail -n 20 "$out"; echo; } >> "$failures"
  fi
  passed=$((passed + $(grep -oE '^\s+[0-9]+ passing' "$out" | grep -oE '[0-9]+' || echo 0)))
  failed=$((failed + $(grep -oE '^\s+[0-9]+ failing' "$out" | grep -oE '[0-9]+' || echo 0)))
  rm -f "$out"
done
if [ -s "$failures" ]; then
  echo
  echo "the failures again (they scrolled by above):"
  cat "$failures"
fi
rm -f "$failures"
echo "mocha in groups on $(node --version): $passed passed, $failed failed"
exit "$status"
