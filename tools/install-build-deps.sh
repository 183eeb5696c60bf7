#!/bin/sh
# install-build-deps.sh - installs the system packages a source build of Ethos needs, only those missing (Debian/Ubuntu apt; sudo when not root).
#
# A wheel needs none of this: it carries the libraries it links. A build from a clone needs a C++17
# compiler and the headers of OpenSSL's libcrypto, simdjson, libpng and RE2 (CMake, Ninja and nlohmann/json
# come from PyPI as build requirements). `--with-test-tools` also installs what the test suite runs
# besides Python packages: binutils (nm), a Java runtime (the opendataloader-pdf CLI), valgrind
# (callgrind counts the instructions of tests/test_complexity.py) and npm (tests/test_ci_formats.py
# fetches the published SARIF schema from the npm registry), poppler-utils (pdftoppm renders the
# annotated PDF of tests/test_annotate.py as another viewer would) and chromium (the headless browser
# tests/test_report_html_browser.py opens the HTML evidence report in, through Playwright).
set -eu

missing=""
need() { missing="$missing $1"; }

command -v g++ >/dev/null 2>&1 || need g++
[ -f /usr/include/openssl/evp.h ] || need libssl-dev
[ -f /usr/include/simdjson.h ] || need libsimdjson-dev
[ -f /usr/include/png.h ] || need libpng-dev
[ -f /usr/include/re2/re2.h ] || need libre2-dev
for option in "$@"; do
  case "$option" in
    --with-test-tools)
      command -v nm >/dev/null 2>&1 || need binutils
      command -v java >/dev/null 2>&1 || need default-jre-headless
      command -v valgrind >/dev/null 2>&1 || need valgrind
      command -v npm >/dev/null 2>&1 || need npm
      command -v pdftoppm >/dev/null 2>&1 || need poppler-utils
      command -v chromium >/dev/null 2>&1 || need chromium
      ;;
    *)
      echo "install-build-deps.sh: unknown option $option (the only one is --with-test-tools)" >&2
      exit 2
      ;;
  esac
done

if [ -z "$missing" ]; then
  echo "build prerequisites: all present"
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-build-deps.sh: missing:$missing" >&2
  echo "this script knows apt (Debian, Ubuntu); install the equivalent packages with your package manager" >&2
  exit 1
fi

if [ "$(id -u)" -eq 0 ]; then
  as_root=""
elif command -v sudo >/dev/null 2>&1; then
  as_root="sudo"
else
  echo "install-build-deps.sh: missing:$missing; run this script as root (there is no sudo here)" >&2
  exit 1
fi

echo "installing:$missing"
# shellcheck disable=SC2086  # $missing is a list of package names
$as_root apt-get update -qq
# shellcheck disable=SC2086
$as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing
