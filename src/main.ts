import { mount } from 'svelte';
import App from './App.svelte';
import { getAdoption } from './lib/bridge';
import { createApp } from './stores/app-context.svelte';
import './app.css';

const target = document.getElementById('app');
if (!target) throw new Error('the #app element is missing from index.html');
mount(App, { target, props: { app: createApp(getAdoption()) } });
