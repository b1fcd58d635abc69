/** What the ↑ and ↓ buttons (MoveButtons) do to a list. */
import { arrayMove } from "@dnd-kit/sortable";

/** `list` with the item at `index` moved one step (-1 up, 1 down); undefined where it is already at that end. */
export function movedStep<T>(list: readonly T[], index: number, by: -1 | 1): T[] | undefined {
  const to = index + by;
  return to < 0 || to >= list.length ? undefined : arrayMove([...list], index, to);
}
