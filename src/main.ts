/**
 * Start-up, in steps so that none is a long task (> 50 ms) and the data comes first:
 * 1. this chunk (bridge, contract, stores, data layer) is evaluated, the stores are created
 *    and started: the profile list is asked for over the bridge and the remembered profile's
 *    database opened, while
 * 2. the components' chunk is fetched and evaluated in a task of its own, then mounted.
 */
import { mount } from 'svelte';
import { getAdoption } from './lib/bridge';
import { createApp } from './stores/app-context.svelte';
import './app.css';

const target = document.getElementById('app');
if (!target) throw new Error('the #app element is missing from index.html');
const app = createApp(getAdoption());
void app.start();
const { default: App } = await import('./App.svelte');
mount(App, { target, props: { app } });
