/**
 * The demo's two address lines: where the app is and where the local service is. Other tools read
 * them (README "Quick start", scripts that wait for the demo), so they stay exactly as they are, in
 * English, whatever the system's language; every other line of the demo is in that language.
 */

/** "Adoption Desk is ready at <one-time link>  (ready in 2.1 s; Ctrl+C stops it)". */
export const appAddressLine = (launchUrl: string, elapsed: string): string =>
  `Adoption Desk is ready at ${launchUrl}  (ready in ${elapsed}; Ctrl+C stops it)`;

/** "Local demo service: <address> (40 animals, key "local-demo-key" on the Free plan)". */
export const serviceAddressLine = (url: string, animals: number, key: string): string =>
  `Local demo service: ${url} (${animals} animals, key "${key}" on the Free plan)`;
