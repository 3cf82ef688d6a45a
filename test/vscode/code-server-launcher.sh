#!/bin/sh
# Stands in for the VS Code executable in @vscode/test-electron's runTests (see launcher.ts).
HERE=$(cd "$(dirname "$0")" && pwd)
exec node --require "$HERE/../../node_modules/tsx/dist/cjs/index.cjs" "$HERE/launcher.ts" "$@"
