// One keychain operation through the project's keytar, for the Electron e2e project. Run by the
// Electron binary under test as Node (ELECTRON_RUN_AS_NODE=1), so the keychain sees the same
// executable as the app: see electron-keychain.ts for why.
//   <electron> keychain-in-electron.mjs get|set|delete <service> <account>   (set: the secret on stdin)
// Prints one JSON line: {"ok":true,"value":…} or {"ok":false,"message":"…"} (keytar's own message).
import keytar from 'keytar';

const [op, service, account] = process.argv.slice(2);

async function readStdin() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

async function run() {
  if (!service || !account) throw new Error('usage: get|set|delete <service> <account>');
  if (op === 'get') return keytar.getPassword(service, account);
  if (op === 'set') return keytar.setPassword(service, account, await readStdin());
  if (op === 'delete') return keytar.deletePassword(service, account);
  throw new Error(`unknown operation "${op}"`);
}

run().then(
  (value) => process.stdout.write(`${JSON.stringify({ ok: true, value: value ?? null })}\n`),
  (error) => process.stdout.write(`${JSON.stringify({ ok: false, message: String(error?.message ?? error) })}\n`),
);
