/**
 * Remembers the main window's size and position in a small JSON file in userData. A file
 * that is missing, corrupt or describes a window off every screen is ignored.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';

export const WindowBounds = z.object({
  x: z.number().int(),
  y: z.number().int(),
  width: z.number().int().min(400).max(20_000),
  height: z.number().int().min(300).max(20_000),
  maximized: z.boolean().default(false),
});
export type WindowBounds = z.infer<typeof WindowBounds>;

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export const DEFAULT_SIZE = { width: 1200, height: 800 } as const;

export function loadWindowBounds(file: string): WindowBounds | null {
  try {
    const parsed = WindowBounds.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function saveWindowBounds(file: string, bounds: WindowBounds): void {
  try {
    mkdirSync(dirname(file), { recursive: true });
    const temp = `${file}.tmp`;
    writeFileSync(temp, JSON.stringify(bounds));
    renameSync(temp, file);
  } catch {
    // Remembering the window is a nicety: never fail the app over it.
  }
}

/** Whether at least 100×100 px of `bounds` lie on one of the screens' work areas. */
export function isVisibleOn(bounds: Rect, workAreas: readonly Rect[]): boolean {
  return workAreas.some((area) => {
    const w = Math.min(bounds.x + bounds.width, area.x + area.width) - Math.max(bounds.x, area.x);
    const h = Math.min(bounds.y + bounds.height, area.y + area.height) - Math.max(bounds.y, area.y);
    return w >= 100 && h >= 100;
  });
}
