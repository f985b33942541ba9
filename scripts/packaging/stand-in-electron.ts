// Stand-in Electron distributions for `electron-builder --dir` where Electron's own cannot be
// downloaded (STACK-NOTES "Packaging"), passed as `electronDist`:
// - Linux: a folder with an `electron` executable, `chrome-sandbox`, empty `resources/`, `locales/`.
// - macOS: `Electron.app` with what electron-builder's createMacApp (app-builder-lib
//   out/electron/electronMac.js) reads and renames: Contents/Info.plist, MacOS/Electron, the
//   helper apps with their Info.plist, and `Electron Framework.framework/Electron Framework`,
//   the file @electron/fuses flips on macOS (its pathToFuseFile).
//
// The executable carries the fuse wire exactly as Electron's binary does, so electron-builder's
// `electronFuses` really flips it and @electron/fuses reads it back: build/fuses/build.py of
// electron/electron writes the sentinel "dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX", then the wire version
// (one byte, 1), the wire length (one byte) and one '0'/'1' per fuse, with the defaults of
// build/fuses/fuses.json5: run_as_node 1, cookie_encryption 0, node_options 1, node_cli_inspect 1,
// embedded_asar_integrity_validation 0, only_load_app_from_asar 0,
// load_browser_process_specific_v8_snapshot 0, grant_file_protocol_extra_privileges 1,
// wasm_trap_handlers 1.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const FUSE_SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
export const ELECTRON_DEFAULT_FUSES = '101100011';

function fuseWireScript(what: string): Buffer {
  const wire = Buffer.concat([
    Buffer.from(`# ${FUSE_SENTINEL}`, 'latin1'),
    Buffer.from([1, ELECTRON_DEFAULT_FUSES.length]),
    Buffer.from(`${ELECTRON_DEFAULT_FUSES}\n`, 'latin1'),
  ]);
  return Buffer.concat([
    Buffer.from(`#!/bin/sh\n# Stand-in for ${what} (packaging checks only); fuse wire below.\n`),
    wire,
    Buffer.from('echo "stand-in Electron: packaging check only" >&2\nexit 1\n'),
  ]);
}

function executable(path: string, content: string | Buffer): void {
  writeFileSync(path, content);
  chmodSync(path, 0o755);
}

const plist = (entries: Record<string, string>): string =>
  `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0"><dict>${Object.entries(entries)
    .map(([key, value]) => `<key>${key}</key><string>${value}</string>`)
    .join('')}</dict></plist>
`;

/** Writes the stand-in macOS distribution (`Electron.app`) into `dir` and returns `dir`. */
export function makeStandInElectronMacDist(dir: string): string {
  const contents = join(dir, 'Electron.app', 'Contents');
  for (const sub of ['MacOS', 'Resources', 'Frameworks/Electron Framework.framework']) {
    mkdirSync(join(contents, sub), { recursive: true });
  }
  writeFileSync(
    join(contents, 'Info.plist'),
    plist({ CFBundleExecutable: 'Electron', CFBundleIdentifier: 'com.github.Electron', CFBundleName: 'Electron' }),
  );
  executable(join(contents, 'MacOS', 'Electron'), '#!/bin/sh\nexit 1\n');
  executable(
    join(contents, 'Frameworks/Electron Framework.framework/Electron Framework'),
    fuseWireScript('Electron Framework'),
  );
  for (const suffix of ['', ' (Renderer)', ' (GPU)', ' (Plugin)']) {
    const helper = join(contents, 'Frameworks', `Electron Helper${suffix}.app`, 'Contents');
    mkdirSync(join(helper, 'MacOS'), { recursive: true });
    writeFileSync(
      join(helper, 'Info.plist'),
      plist({ CFBundleExecutable: `Electron Helper${suffix}`, CFBundleIdentifier: 'com.github.Electron.helper' }),
    );
    executable(join(helper, 'MacOS', `Electron Helper${suffix}`), '#!/bin/sh\nexit 1\n');
  }
  return dir;
}

/** Writes the stand-in Linux distribution into `dir` (created) and returns `dir`. */
export function makeStandInElectronDist(dir: string): string {
  mkdirSync(join(dir, 'resources'), { recursive: true });
  mkdirSync(join(dir, 'locales'), { recursive: true });
  executable(join(dir, 'electron'), fuseWireScript('the Electron binary'));
  executable(join(dir, 'chrome-sandbox'), '#!/bin/sh\nexit 1\n');
  return dir;
}
