/**
 * What a person reads of the browser host follows the process's language (the system's for its
 * command line, then the window's): the port-taken error, the page without a session, the window's
 * "no session" sentence. English stays as it was.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { howToOpenPage } from '../../../electron/host/launch-session';
import { PortTakenError } from '../../../electron/host/host-port';
import { AddressTakenError } from '../../../electron/host/loopback-listen';
import { t, useLanguage } from '../../../src/shared/i18n';

afterEach(async () => {
  await useLanguage('en');
});

describe('the browser host’s words', () => {
  it('says them in Spanish, then in English again', async () => {
    await useLanguage('es');
    const error = new PortTakenError(5199, '127.0.0.1', 'ab12', '/tmp/data');
    expect(error.message).toMatch(/^El puerto 5199 de 127\.0\.0\.1 está en uso/);
    expect(new AddressTakenError('[::1]', 5199).message).toMatch(
      /^El puerto 5199 de \[::1\] está en uso, así que Adoption Desk no se inició\. .*la sesión\./,
    );
    expect(error.message).toContain("`ss -ltnp 'sport = :5199'` (Linux)");
    const page = howToOpenPage();
    expect(page).toContain('<html lang="es">');
    expect(page).toContain('<h1>Abre Adoption Desk desde su propio enlace</h1>');
    expect(page).toContain('<code>npm run host</code>');
    expect(t('host.noSession')).toMatch(/^esta ventana ya no está conectada/);

    await useLanguage('en');
    expect(new PortTakenError(5199, '127.0.0.1', 'ab12', '/tmp/data').message).toMatch(
      /^Port 5199 on 127\.0\.0\.1 is in use, so Adoption Desk did not start\. Browsers open its address at both of this computer's loopback addresses, 127\.0\.0\.1 and \[::1\] .*`ss -ltnp 'sport = :5199'` \(Linux\), `lsof -nP -iTCP:5199 -sTCP:LISTEN` \(macOS\) or `netstat -ano \| findstr :5199` \(Windows\)\./,
    );
    expect(howToOpenPage()).toContain(
      '<p>To get a new link: press Enter in the terminal where Adoption Desk is running, or stop it (Ctrl+C) and start it\nagain with <code>npm run host</code> (or <code>npm run demo</code>), then open the link it prints.</p>',
    );
  });
});
