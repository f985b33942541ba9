/**
 * The e2e suite in another language: the messages of a language as the window shows them (so a
 * spec finds a button by the words of its catalogue), choosing the pseudo-locale, and the audit of
 * a screen in it (docs/i18n.md "The pseudo-locale").
 */
import type { Page } from '@playwright/test';
import en from '../../../src/shared/i18n/generated/en';
import pseudo from '../../../src/shared/i18n/generated/en-XA';
import es from '../../../src/shared/i18n/generated/es';
import type { MessageKey, Messages } from '../../../src/shared/i18n/generated/messages';

export const LANGUAGE_STORAGE_KEY = 'adoption-desk.language';
const CATALOGUES = { en, es, 'en-XA': pseudo } as const;
export type ShownLanguage = keyof typeof CATALOGUES;

/** The message `key` of `language`, as the window writes it. */
export function message<K extends MessageKey>(
  language: ShownLanguage,
  key: K,
  ...args: Parameters<Messages[K]>
): string {
  return (CATALOGUES[language][key] as (d?: unknown) => string)(args[0]);
}

/** The same as a pattern matching the whole text, for locators (`exact` names with special characters). */
export const exactly = (text: string): RegExp => new RegExp(`^\\s*${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);

/** Makes `language` the window's choice (as Keys and profiles keeps it) and reloads; waits until it shows. */
export async function showLanguage(page: Page, language: ShownLanguage): Promise<void> {
  await page.evaluate(({ key, value }) => localStorage.setItem(key, value), {
    key: LANGUAGE_STORAGE_KEY,
    value: language,
  });
  await page.reload();
  await page.waitForFunction((lang) => document.documentElement.lang === lang, language);
}

export interface AuditProblem {
  kind: 'english' | 'cut';
  text: string;
  where: string;
}

/**
 * What the current screen shows that did not come from the pseudo-locale's catalogue, and text it
 * cuts off. Text inside ⟦…⟧ came from a message; what is left must hold no English word (two
 * Latin letters in a row) unless it is data, inside an element marked `translate="no"`. Checked:
 * every visible text node, and the accessible names and hints staff or their screen readers
 * meet (aria-label, title, placeholder, alt). Cut: an element whose own overflow hides part of a
 * message (scrolling areas excepted, and text hidden from the eye on purpose for screen readers,
 * the 1-pixel clipped box of `.visually-hidden`, which they read whole), and a page wider than the
 * window.
 */
export async function auditScreen(page: Page): Promise<AuditProblem[]> {
  return page.evaluate(() => {
    const problems: { kind: 'english' | 'cut'; text: string; where: string }[] = [];
    const strip = (text: string): string => {
      let before: string;
      let now = text;
      do {
        before = now;
        now = now.replace(/⟦[^⟦⟧]*⟧/g, ' ');
      } while (now !== before);
      return now;
    };
    const english = (text: string): boolean => /[A-Za-z]{2,}/.test(strip(text));
    const where = (el: Element): string => {
      const parts: string[] = [];
      for (
        let node: Element | null = el;
        node && node !== document.body && parts.length < 4;
        node = node.parentElement
      ) {
        const id = node.id ? `#${node.id}` : '';
        const test = node.getAttribute('data-testid');
        parts.unshift(`${node.tagName.toLowerCase()}${id}${test ? `[data-testid=${test}]` : ''}`);
      }
      return parts.join(' > ');
    };
    const isData = (el: Element): boolean => el.closest('[translate="no"]') !== null;
    const visible = (el: Element): boolean =>
      el.checkVisibility({ opacityProperty: true, visibilityProperty: true, contentVisibilityAuto: true });

    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      const text = node.textContent ?? '';
      if (!el || !text.trim() || el.closest('script, style, noscript, template')) continue;
      if (isData(el) || !visible(el)) continue;
      if (english(text)) problems.push({ kind: 'english', text: text.trim().slice(0, 160), where: where(el) });
    }
    for (const el of document.body.querySelectorAll(
      '[aria-label], [title], [placeholder], [alt], [aria-description]',
    )) {
      if (isData(el) || !visible(el)) continue;
      for (const name of ['aria-label', 'title', 'placeholder', 'alt', 'aria-description']) {
        const value = el.getAttribute(name);
        if (value && english(value))
          problems.push({ kind: 'english', text: `${name}="${value.slice(0, 160)}"`, where: where(el) });
      }
    }

    const clips = (style: CSSStyleDeclaration) =>
      ['hidden', 'clip'].includes(style.overflowX) || ['hidden', 'clip'].includes(style.overflowY);
    // Text for screen readers only: inside a clipping box of at most 1×1 px.
    const forScreenReaders = (el: Element): boolean => {
      for (let node: Element | null = el; node && node !== document.body; node = node.parentElement) {
        const box = node.getBoundingClientRect();
        if (clips(getComputedStyle(node)) && box.width <= 1 && box.height <= 1) return true;
      }
      return false;
    };
    for (const el of document.body.querySelectorAll('*')) {
      if (!visible(el) || isData(el)) continue;
      const own = [...el.childNodes].some(
        (child) => child.nodeType === Node.TEXT_NODE && /⟦/.test(child.textContent ?? ''),
      );
      if (!own || forScreenReaders(el)) continue;
      // The element itself, then its nearest ancestor that clips what overflows it.
      const style = getComputedStyle(el);
      if (clips(style) || style.textOverflow === 'ellipsis') {
        if (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1) {
          problems.push({ kind: 'cut', text: (el.textContent ?? '').trim().slice(0, 160), where: where(el) });
          continue;
        }
      }
      const box = el.getBoundingClientRect();
      for (let parent = el.parentElement; parent && parent !== document.body; parent = parent.parentElement) {
        const parentStyle = getComputedStyle(parent);
        if (['auto', 'scroll'].includes(parentStyle.overflowX) || ['auto', 'scroll'].includes(parentStyle.overflowY))
          break;
        if (!clips(parentStyle)) continue;
        const outer = parent.getBoundingClientRect();
        if (box.right > outer.right + 1 || box.bottom > outer.bottom + 1 || box.left < outer.left - 1) {
          problems.push({ kind: 'cut', text: (el.textContent ?? '').trim().slice(0, 160), where: where(el) });
        }
        break;
      }
    }
    if (document.documentElement.scrollWidth > window.innerWidth + 1) {
      problems.push({
        kind: 'cut',
        text: `the page is ${document.documentElement.scrollWidth}px wide in a ${window.innerWidth}px window`,
        where: 'html',
      });
    }
    return problems;
  });
}
