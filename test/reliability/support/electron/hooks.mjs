// Module resolution hook: `electron` resolves to the stand-in beside this file (never the real one).
export async function resolve(specifier, context, next) {
  if (specifier === 'electron') return { url: new URL('./stand-in.mjs', import.meta.url).href, shortCircuit: true };
  return next(specifier, context);
}
