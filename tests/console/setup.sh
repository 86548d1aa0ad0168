#!/usr/bin/env bash
# Installs the pinned npm packages of the console's browser test (npm ci,
# from package-lock.json: puppeteer-core, which drives Debian's chromium and
# downloads no browser). node_modules/ is git-ignored. Run by ctest
# (console_setup).
set -euo pipefail
cd "$(dirname "$0")"
npm ci --no-audit --no-fund --loglevel=error
test -x /usr/bin/chromium || { echo "no /usr/bin/chromium: run scripts/install-deps.sh" >&2; exit 1; }
