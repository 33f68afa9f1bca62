#!/usr/bin/env bash
# Prints the line-break properties, widths and pair table of libunistring 1.3 (the library GNU
# gettext 0.23.1's msgcat uses in Debian trixie) from the library itself, for
# .ci/gen_unicode_data_023.ts. Needs the trixie tree of ../shared/tools/gettext-0.23 (root) and the
# headers lbrktables.h / lbrkprop1.h of libunistring 1.3's sources (only for the table's layout).
#
#   bash .ci/libunistring13/dump.sh SOURCES/lib > /tmp/lbrk13.txt
set -euo pipefail
LIB=${1:?usage: dump.sh LIBUNISTRING-1.3-SOURCES/lib}
ROOT=${GETTEXT23_ROOT:-/opt/gettext-0.23}
HERE=$(cd "$(dirname "$0")" && pwd)
chroot "$ROOT" sh -c 'command -v gcc >/dev/null && [ -f /usr/include/unistr.h ]' ||
  chroot "$ROOT" sh -c 'DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gcc libc6-dev libunistring-dev' >&2
WORK=$(mktemp -d "$ROOT/tmp/lbrk13.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/inc/unilbrk"
cp "$LIB/unilbrk/lbrktables.h" "$LIB/unilbrk/lbrkprop1.h" "$WORK/inc/unilbrk/"
printf '#include <stdint.h>\ntypedef uint32_t ucs4_t;\n' > "$WORK/inc/unitypes.h"
cp "$HERE/dump.c" "$WORK/"
IN=/tmp/$(basename "$WORK")
chroot "$ROOT" sh -c "cd $IN && gcc -O2 -I inc -I inc/unilbrk -o dump dump.c -lunistring && ./dump"
