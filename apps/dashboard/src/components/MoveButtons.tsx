/** The ↑ and ↓ buttons that move one thing of a list a step, named for screen readers. */
export function MoveButtons({
  name,
  index,
  count,
  onMove,
  className,
}: {
  /** What moves, as in "Move {name} up". */
  name: string;
  /** Where it stands in a list of `count`: ↑ is off for the first, ↓ for the last. */
  index?: number;
  count?: number;
  onMove: (by: -1 | 1) => void;
  className: string;
}) {
  return (
    <>
      <button
        type="button"
        className={className}
        aria-label={`Move ${name} up`}
        disabled={index === undefined ? undefined : index === 0}
        onClick={() => onMove(-1)}
      >
        ↑
      </button>
      <button
        type="button"
        className={className}
        aria-label={`Move ${name} down`}
        disabled={index === undefined || count === undefined ? undefined : index === count - 1}
        onClick={() => onMove(1)}
      >
        ↓
      </button>
    </>
  );
}
