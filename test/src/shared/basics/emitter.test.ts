import { describe, expect, it, vi } from 'vitest';
import { createEmitter } from '../../../../src/shared/basics/emitter';

describe('emitter', () => {
  it('calls every listener with the arguments, in the order they subscribed, until its disposer runs', () => {
    const emitter = createEmitter<[string, number]>();
    const seen: string[] = [];
    const offFirst = emitter.on((name, n) => seen.push(`first ${name} ${n}`));
    emitter.on((name, n) => seen.push(`second ${name} ${n}`));
    emitter.emit('a', 1);
    offFirst();
    emitter.emit('b', 2);
    expect(seen).toEqual(['first a 1', 'second a 1', 'second b 2']);
    expect(emitter.size).toBe(1);
  });

  it('a listener that throws is reported and never stops the others or the caller', () => {
    const onListenerError = vi.fn();
    const emitter = createEmitter({ onListenerError });
    const broke = new Error('listener broke');
    const after = vi.fn();
    emitter.on(() => {
      throw broke;
    });
    emitter.on(after);
    expect(() => emitter.emit()).not.toThrow();
    expect(after).toHaveBeenCalledOnce();
    expect(onListenerError).toHaveBeenCalledExactlyOnceWith(broke);
  });

  it('reports a throwing listener on the console when told no other way', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const emitter = createEmitter();
    emitter.on(() => {
      throw new Error('listener broke');
    });
    emitter.emit();
    expect(error).toHaveBeenCalledOnce();
    expect(String(error.mock.calls[0]?.join(' '))).toContain('listener broke');
  });

  it('each subscription is its own: the same function twice is called twice, and each disposer ends one', () => {
    const emitter = createEmitter();
    const listener = vi.fn();
    const offOne = emitter.on(listener);
    emitter.on(listener);
    emitter.emit();
    expect(listener).toHaveBeenCalledTimes(2);
    offOne();
    offOne();
    emitter.emit();
    expect(listener).toHaveBeenCalledTimes(3);
    expect(emitter.size).toBe(1);
  });

  it('during an emit: a listener added is not called until the next emit; one disposed is not called at all', () => {
    const emitter = createEmitter();
    const seen: string[] = [];
    const late = (): void => void seen.push('late');
    let offSecond = (): void => {};
    emitter.on(() => {
      seen.push('first');
      offSecond();
      emitter.on(late);
    });
    offSecond = emitter.on(() => seen.push('second'));
    emitter.emit();
    expect(seen).toEqual(['first']);
    seen.length = 0;
    emitter.emit();
    expect(seen).toEqual(['first', 'late']);
  });

  it('a listener may dispose itself while it is called', () => {
    const emitter = createEmitter<[number]>();
    const seen: number[] = [];
    const off = emitter.on((n) => {
      seen.push(n);
      off();
    });
    emitter.emit(1);
    emitter.emit(2);
    expect(seen).toEqual([1]);
    expect(emitter.size).toBe(0);
  });
});
