#!/usr/bin/env bash
# Formats every C++ file in git with clang-format and the project's .clang-format.
#   scripts/format.sh          rewrite the files that are off
#   scripts/format.sh --check  change nothing: list the files that are off (with
#                              how many lines differ) and exit 1 if there are any
# scripts/test.sh runs the check. Debian's clang-format (14) is the reference:
# another version may wrap some lines differently.
set -euo pipefail
cd "$(dirname "$0")/.."

check=0
case "${1:-}" in
  --check) check=1 ;;
  "") ;;
  *)
    echo "scripts/format.sh: unknown argument '$1' (expected nothing or --check)" >&2
    exit 2
    ;;
esac

command -v clang-format >/dev/null || {
  echo "scripts/format.sh: clang-format is not installed (scripts/setup.sh installs it)" >&2
  exit 2
}

off=0
while IFS= read -r -d '' f; do
  if [ "$check" = 1 ]; then
    n=$(clang-format --style=file "$f" | diff "$f" - | grep -c '^[<>]' || true)
    if [ "$n" -gt 0 ]; then
      echo "$f: $n lines differ from clang-format"
      off=$((off + 1))
    fi
  else
    clang-format --style=file -i "$f"
  fi
done < <(git ls-files -z '*.cpp' '*.h' '*.hpp' '*.cc')

if [ "$check" = 1 ] && [ "$off" -gt 0 ]; then
  echo "scripts/format.sh: $off files are not clang-formatted; run scripts/format.sh" >&2
  exit 1
fi
[ "$check" = 1 ] && echo "format: every C++ file is clang-formatted"
exit 0
