/**
 * Island `like-button`: simple liking of a post (SPEC §1, website setting simpleLikingEnabled).
 * One like per visitor; pressing again takes it back. Props: { itemId, likeCount }.
 */
import { useEffect, useState } from "react";
import { apiCall } from "../../lib/api.js";
import "./like-button.css";

interface LikeAnswer {
  itemId: string;
  likeCount: number;
  liked: boolean;
}

export interface LikeButtonProps {
  itemId: string;
  likeCount?: number;
}

/** "1 like", "N likes". */
export function likeText(n: number): string {
  return `${n} ${n === 1 ? "like" : "likes"}`;
}

export default function LikeButton({ itemId, likeCount = 0 }: LikeButtonProps) {
  const [state, setState] = useState({ likeCount, liked: false });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const ctl = new AbortController();
    apiCall<LikeAnswer>(`/api/content/items/${encodeURIComponent(itemId)}/like`, { signal: ctl.signal })
      .then((a) => setState({ likeCount: a.likeCount, liked: a.liked }))
      .catch(() => {});
    return () => ctl.abort();
  }, [itemId]);

  const toggle = async () => {
    setBusy(true);
    setError(null);
    try {
      const a = await apiCall<LikeAnswer>(`/api/content/items/${encodeURIComponent(itemId)}/like`, {
        method: state.liked ? "DELETE" : "POST",
      });
      setState({ likeCount: a.likeCount, liked: a.liked });
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <span className="like-button-island">
      <button
        type="button"
        className={`like-button${state.liked ? " is-liked" : ""}`}
        aria-pressed={state.liked}
        disabled={busy}
        onClick={toggle}
      >
        <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
          <path d="M12 20s-7.5-4.6-7.5-10A4.3 4.3 0 0112 7.4 4.3 4.3 0 0119.5 10c0 5.4-7.5 10-7.5 10z" />
        </svg>
        <span>{state.liked ? "Liked" : "Like"}</span>
      </button>
      <span className="like-count" aria-live="polite">
        {likeText(state.likeCount)}
      </span>
      {error && (
        <span className="like-error" role="alert">
          {error}
        </span>
      )}
    </span>
  );
}
