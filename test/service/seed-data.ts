/** `--seed-animals N`: realistic animals (varied names, a few categories, all three statuses). */
import { ANIMAL_STATUSES, type AnimalStatus } from '../../src/shared/records/animal';
import { mulberry32 } from './prng';
import type { NewAnimal } from './store';

const NAMES = [
  'Bella',
  'Max',
  'Luna',
  'Charlie',
  'Lucy',
  'Cooper',
  'Daisy',
  'Milo',
  'Nala',
  'Rocky',
  'Willow',
  'Oscar',
  'Pepper',
  'Ziggy',
  'Hazel',
  'Biscuit',
  'Mochi',
  'Juniper',
  'Otis',
  'Clementine',
  'Gus',
  'Poppy',
  'Tofu',
  'Marley',
  'Olive',
  'Scout',
  'Pickles',
  'Bramble',
  'Sir Whiskers',
  'Ruby',
  'Toast',
  'Maple',
  'Finn',
  'Zoë',
  'Jasper',
  'Mabel',
  'Koa',
  'Ginger',
  'Pudding',
  'Ollie',
];
const SUFFIXES = ['', '', '', ' II', ' Jr.', ' the Brave', ' Bean'];
/** Categories: 1 dogs, 2 cats, 3 rabbits, 4 birds, 5 small mammals. */
const CATEGORIES = ['1', '1', '1', '2', '2', '2', '3', '4', '5'];
const STATUS_WEIGHTS: readonly AnimalStatus[] = ['available', 'available', 'available', 'pending', 'sold'];

export function seedAnimals(count: number, seed: number): NewAnimal[] {
  const random = mulberry32(seed ^ 0x2545f491);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  return Array.from({ length: count }, (_, index) => ({
    name: `${pick(NAMES)}${pick(SUFFIXES)}`,
    categoryId: pick(CATEGORIES),
    // the first three cover every status, whatever the draw
    status: index < ANIMAL_STATUSES.length ? (ANIMAL_STATUSES[index] as AnimalStatus) : pick(STATUS_WEIGHTS),
  }));
}
