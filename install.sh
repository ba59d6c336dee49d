#!/bin/sh
# Installs svc-cli from this checkout, together with the Node 24 runtime it runs on (the `node`
# package from the npm registry), into a prefix of its own:
#
#   $SVC_CLI_PREFIX (default ~/.svc-cli)/
#     runtime/   Node 24 from the npm registry (npm package node@24)
#     lib/       svc-cli.mjs, the CLI bundled into one JavaScript file (templates included)
#     bin/       svc-cli, the launcher
#
# and links the launcher into $SVC_CLI_BIN_DIR (default ~/.local/bin).
#
#   ./install.sh                 asks for confirmation (from the terminal, else from stdin)
#   ASSUME_YES=1 ./install.sh    no question
#
# Needs: npm (to fetch the runtime) and this checkout's dependencies (`npm ci`), used to bundle.
set -eu

REPO=$(cd "$(dirname "$0")" && pwd)
PREFIX=${SVC_CLI_PREFIX:-"$HOME/.svc-cli"}
BIN_DIR=${SVC_CLI_BIN_DIR:-"$HOME/.local/bin"}
NODE_PACKAGE=${SVC_CLI_NODE_PACKAGE:-node@24}

say() { printf '%s\n' "$*"; }
die() { printf 'install.sh: %s\n' "$*" >&2; exit 1; }

case "$PREFIX" in /*) ;; *) PREFIX="$(pwd)/$PREFIX" ;; esac
case "$BIN_DIR" in /*) ;; *) BIN_DIR="$(pwd)/$BIN_DIR" ;; esac

command -v npm >/dev/null 2>&1 || die "npm is needed to fetch the Node runtime from the npm registry — install npm and run this again"
[ -f "$REPO/cli/bin/svc-cli.ts" ] || die "run this script from a checkout of svc-engine ($REPO has no cli/)"
[ -d "$REPO/node_modules/esbuild" ] || die "this checkout's dependencies are missing — run \`npm ci\` in $REPO first"

say "This installs svc-cli with its own Node runtime ($NODE_PACKAGE from the npm registry):"
say "  into     $PREFIX"
say "  command  $BIN_DIR/svc-cli"

if [ "${ASSUME_YES:-}" != 1 ]; then
  printf 'Continue? [y/N] '
  answer=
  # Prefer the terminal (stdin may be the script itself, as in `curl … | sh`); else read stdin.
  if ( : </dev/tty ) 2>/dev/null; then
    read -r answer </dev/tty || answer=
  else
    read -r answer || answer=
  fi
  case "$answer" in
    y | Y | yes | YES | Yes) ;;
    *) say "Nothing installed."; exit 1 ;;
  esac
fi

mkdir -p "$PREFIX/runtime" "$PREFIX/lib" "$PREFIX/bin"

say "Fetching $NODE_PACKAGE …"
[ -f "$PREFIX/runtime/package.json" ] || printf '{ "name": "svc-cli-runtime", "private": true }\n' >"$PREFIX/runtime/package.json"
npm install --prefix "$PREFIX/runtime" --prefer-offline --no-audit --no-fund --no-update-notifier --loglevel=error "$NODE_PACKAGE" >/dev/null ||
  die "npm could not install $NODE_PACKAGE (see the npm output above)"
NODE="$PREFIX/runtime/node_modules/node/bin/node"
[ -x "$NODE" ] || die "the $NODE_PACKAGE package did not provide $NODE"
node_version=$("$NODE" --version) || die "$NODE does not run on this machine"
case "$node_version" in v24.*) ;; *) die "expected Node 24 from $NODE_PACKAGE, got $node_version" ;; esac

say "Bundling svc-cli with Node $node_version …"
"$NODE" "$REPO/cli/build.ts" --outfile "$PREFIX/lib/svc-cli.mjs.new" >/dev/null || die "bundling svc-cli failed"
mv -f "$PREFIX/lib/svc-cli.mjs.new" "$PREFIX/lib/svc-cli.mjs"

launcher="$PREFIX/bin/svc-cli"
cat >"$launcher.new" <<EOF
#!/bin/sh
# svc-cli launcher written by install.sh: svc-cli on its own Node runtime.
exec "$NODE" "$PREFIX/lib/svc-cli.mjs" "\$@"
EOF
chmod 755 "$launcher.new"
mv -f "$launcher.new" "$launcher"

version=$("$launcher" --version) || die "the installed svc-cli does not start"

mkdir -p "$BIN_DIR"
ln -sf "$launcher" "$BIN_DIR/svc-cli"

say "Installed svc-cli $version: $BIN_DIR/svc-cli -> $launcher"
case ":$PATH:" in
  *":$BIN_DIR:"*) say "Run \`svc-cli login\` to sign in." ;;
  *) say "Add it to your PATH (e.g. in ~/.profile):  export PATH=\"$BIN_DIR:\$PATH\"" ;;
esac
