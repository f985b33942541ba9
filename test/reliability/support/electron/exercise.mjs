/**
 * Drives the guards the built main process set up on the stand-in (stand-in.mjs) and writes
 * what they answered as JSON to $ADOPTION_STAND_IN_REPORT.
 */
import { writeFileSync } from 'node:fs';

const PAGE = 'app://adoption-desk/index.html';

/** Fires `event` on `contents` and says whether a listener called preventDefault. */
function prevented(contents, event) {
  let called = false;
  contents.fire(event, { preventDefault: () => (called = true) }, 'https://evil.example/');
  return called;
}

function permission(record, contents, name, details) {
  let granted = 'not called';
  record.session.requestHandler?.(contents, name, (answer) => (granted = answer), details);
  const checked = record.session.checkHandler?.(contents, name, new URL(details.requestingUrl ?? PAGE).origin, details);
  return { granted, checked: checked ?? 'not set' };
}

/** What the app:// handler answers for the page, every script/stylesheet it links, and escapes. */
async function servePage(record) {
  const handler = record.protocols.get('app');
  if (!handler) return null;
  const fetchApp = async (url) => {
    const response = await handler(new Request(url));
    return { response, body: await response.text() };
  };
  const page = await fetchApp(PAGE);
  const linked = [...page.body.matchAll(/(?:src|href)="\.?\/?(assets\/[^"]+)"/g)].map((m) => m[1]);
  const assets = {};
  for (const path of linked) {
    const { response } = await fetchApp(`app://adoption-desk/${path}`);
    assets[path] = `${response.status} ${response.headers.get('content-type')}`;
  }
  const escapes = {};
  for (const url of ['app://adoption-desk/%2e%2e/main/index.js', 'app://adoption-desk/../preload/index.cjs']) {
    escapes[url] = (await fetchApp(url)).response.status;
  }
  return {
    status: page.response.status,
    contentType: page.response.headers.get('content-type'),
    csp: page.response.headers.get('content-security-policy'),
    linkedAssets: assets,
    escapes,
  };
}

export function writeReport(record, extra, exitCode) {
  const result = {
    singleInstanceLock: record.singleInstanceLock,
    userDataSet: record.userDataSet,
    privileged: record.privileged,
    privilegedBeforeReady: record.privilegedBeforeReady,
    protocolsHandled: [...record.protocols.keys()],
    menus: record.menus,
    dialogs: record.dialogs,
    netAccessed: record.netAccessed,
    windowCount: record.windows.length,
    ...extra,
  };
  writeFileSync(process.env.ADOPTION_STAND_IN_REPORT, JSON.stringify(result, null, 2));
  process.exit(exitCode);
}

export async function exercise({ app, record, FakeWebContents }) {
  const win = record.windows[0];
  const contents = win.webContents;
  const other = new FakeWebContents();
  app.fire('web-contents-created', {}, other);
  let headers = null;
  record.session.headersHandler?.({ responseHeaders: { 'X-Other': ['1'] } }, (answer) => (headers = answer));
  const mainFrame = { requestingUrl: `${PAGE}#/diagnostics`, isMainFrame: true };
  const listProfiles = record.handlers.get('adoption:listProfiles');
  const own = await listProfiles?.({ sender: contents, senderFrame: contents.mainFrame }, {});
  const foreign = await record.handlers.get('adoption:hasKey')?.(
    { sender: other, senderFrame: other.mainFrame },
    { profileId: 'local' },
  );
  writeReport(
    record,
    {
      webPreferences: win.options.webPreferences,
      show: win.options.show,
      loadedUrl: win.loadedUrl,
      page: await servePage(record),
      navigation: Object.fromEntries(
        ['will-navigate', 'will-redirect', 'will-attach-webview'].map((event) => [event, prevented(contents, event)]),
      ),
      windowOpen: contents.windowOpenHandler?.({ url: 'https://evil.example/' }) ?? null,
      otherContents: {
        willNavigatePrevented: prevented(other, 'will-navigate'),
        windowOpen: other.windowOpenHandler?.({ url: 'https://evil.example/' }) ?? null,
      },
      permissions: {
        clipboardWriteMainFrame: permission(record, contents, 'clipboard-sanitized-write', mainFrame),
        clipboardWriteSubframe: permission(record, contents, 'clipboard-sanitized-write', {
          requestingUrl: PAGE,
          isMainFrame: false,
        }),
        clipboardWriteOtherContents: permission(record, other, 'clipboard-sanitized-write', mainFrame),
        clipboardRead: permission(record, contents, 'clipboard-read', mainFrame),
        media: permission(record, contents, 'media', mainFrame),
      },
      responseHeaders: headers?.responseHeaders ?? null,
      ipcChannels: [...record.handlers.keys()].sort(),
      localDemoUrl: own?.ok ? own.data.profiles.find((profile) => profile.id === 'local')?.baseUrl : own,
      foreignSenderAnswer: foreign ?? null,
    },
    0,
  );
}
