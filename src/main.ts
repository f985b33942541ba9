/**
 * Start-up in steps, each in a task of its own so none is a long task (> 50 ms), with the
 * data first:
 * 1. this entry and what it imports (the contract, its zod schemas, English) are evaluated;
 * 2. the stores and the data layer (`import()`: one chunk with the components, evaluated then)
 *    are created and started, which asks for the profile list and opens the remembered
 *    profile's database, while
 * 3. the components (`import()`) are mounted, once the language to show is loaded (English is
 *    in the start-up; another language is a chunk of its own).
 * The chunks of steps 2 and 3 are fetched along with the entry (modulepreload links added by
 * electron.vite.config.ts), so the steps cost no extra round trip; the components' modules only
 * define their templates, so evaluating them in step 2 costs it little.
 */
import { loadApp, loadStores } from './app';
import { getAdoption } from './transport';
import './app.css';

const target = document.getElementById('app');
if (!target) throw new Error('the #app element is missing from index.html');
const api = getAdoption();
const { createApp } = await loadStores();
const app = createApp(api);
void app.start();
const [{ App, mount }] = await Promise.all([loadApp(), app.language.start()]);
mount(App, { target, props: { app } });
