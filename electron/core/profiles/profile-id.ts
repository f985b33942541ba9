/** Ids for the staff's own profiles, made from the name: lower-case, dashes, unique. */
const MAX_ID_LENGTH = 40;

function slug(name: string): string {
  const base = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return base || 'profile';
}

/** An id matching `ProfileId` made from `name`, not in `taken` (adds `-2`, `-3`, … as needed). */
export function makeProfileId(name: string, taken: ReadonlySet<string>): string {
  const base = slug(name);
  for (let n = 1; ; n += 1) {
    const suffix = n === 1 ? '' : `-${n}`;
    const head = base.slice(0, MAX_ID_LENGTH - suffix.length).replace(/-+$/, '') || 'profile';
    const id = `${head}${suffix}`;
    if (!taken.has(id)) return id;
  }
}
