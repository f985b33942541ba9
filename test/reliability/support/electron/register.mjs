// `node --import` this to run the built main process with the electron stand-in.
import { register } from 'node:module';

register('./hooks.mjs', import.meta.url);
