// Loaded with `node --import` around electronegativity: it asks the internet for translations
// and Electron's release list, which offline costs seconds of retries per run. Here `got` (for
// electronegativity only) answers at once that there is no network.
import Module from 'node:module';

const load = Module._load;
Module._load = function (request, parent, ...rest) {
  if (request === 'got' && parent?.filename.includes('electronegativity')) {
    const offline = () => Promise.reject(new Error('offline: network disabled for the scan'));
    offline.head = offline;
    offline.get = offline;
    return offline;
  }
  return load.call(this, request, parent, ...rest);
};
