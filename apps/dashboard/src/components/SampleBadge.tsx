/** The "Sample" badge of placeholder content a starter brought (docs/starters.md). */
export function SampleBadge({ sample }: { sample?: boolean }) {
  if (!sample) return null;
  return (
    <span className="badge sample" title="Placeholder content from the starter: replace or remove it">
      Sample
    </span>
  );
}
