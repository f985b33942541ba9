/** A value tests can change so that what reads it on screen updates (Svelte state outside a component). */
export class ReactiveBox<T> {
  value = $state() as T;

  constructor(initial: T) {
    this.value = initial;
  }
}
