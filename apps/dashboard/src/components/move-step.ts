/** What the ↑ and ↓ buttons (MoveButtons) do to a list. */

/** `list` with the item at `index` moved one step (-1 up, 1 down); undefined where it is already at that end. */
export function movedStep<T>(list: readonly T[], index: number, by: -1 | 1): T[] | undefined {
  const other = index + by;
  if (other < 0 || other >= list.length) return undefined;
  const next = [...list];
  [next[index], next[other]] = [next[other]!, next[index]!];
  return next;
}
