# Sourced, not run: `. scripts/use-node.sh`. Makes `node` (and the npm that runs on it) a Node the
# project supports, 22.12 or later: the one already on PATH when it is one, else Node 24 LTS from
# the npm registry (the `node-linux-<arch>` package: the official binary and its headers), kept in
# ~/.cache/adoption-desk/. Sets npm_config_nodedir to that Node's headers, so native modules
# (keytar, the policy watcher) are built for the Node that runs them. POSIX sh; Linux only.
#
# ADOPTION_NODE_VERSION picks another release from the registry (e.g. 22.23.3 to test on Node 22).

adoption_node_supported() {
  node -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 22 || (a === 22 && b >= 12) ? 0 : 1)' 2>/dev/null
}

adoption_use_node() {
  wanted="${ADOPTION_NODE_VERSION:-}"
  if [ -z "$wanted" ] && adoption_node_supported; then
    echo "use-node: Node $(node --version) on PATH is supported"
    return 0
  fi
  wanted="${wanted:-24.21.0}"
  if ! command -v npm >/dev/null 2>&1; then
    echo "use-node: npm is needed to fetch Node $wanted from the npm registry; install Node 22.12+ and npm first" >&2
    return 1
  fi
  case "$(uname -m)" in
    x86_64 | amd64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *)
      echo "use-node: no Node package for $(uname -m); install Node 22.12+ yourself" >&2
      return 1
      ;;
  esac
  # The machine's npm settings (its registry or mirror, the organisation's CA or proxy) are in npm's
  # global config, which npm looks for beside the Node it runs on and under `--prefix`: keep that file
  # for the fetch below and for every npm run on the new Node (npm's `globalconfig` setting).
  globalconfig="${npm_config_globalconfig:-$(npm config get globalconfig 2>/dev/null)}"
  prefix="${XDG_CACHE_HOME:-$HOME/.cache}/adoption-desk/node-$wanted-$arch"
  package="$prefix/node_modules/node-linux-$arch"
  if [ ! -x "$package/bin/node" ]; then
    echo "use-node: fetching Node $wanted (node-linux-$arch) from the npm registry into $prefix"
    mkdir -p "$prefix" &&
      npm install ${globalconfig:+--globalconfig "$globalconfig"} --prefix "$prefix" --no-save --no-package-lock \
        --no-audit --no-fund --ignore-scripts "node-linux-$arch@$wanted" >"$prefix/install.log" 2>&1 || {
      tail -n 20 "$prefix/install.log" >&2
      echo "use-node: could not fetch Node $wanted" >&2
      return 1
    }
  fi
  PATH="$package/bin:$PATH"
  npm_config_nodedir="$package"
  export PATH npm_config_nodedir
  if [ -n "$globalconfig" ]; then
    npm_config_globalconfig="$globalconfig"
    export npm_config_globalconfig
  fi
  hash -r 2>/dev/null || true
  echo "use-node: Node $(node --version) from $package"
}

adoption_use_node
