/**
 * Island `like-button`: simple liking of a post (SPEC §1, website setting simpleLikingEnabled).
 * One like per visitor; pressing again takes it back. Props: { itemId, likeCount }.
 * A plain script (no React), so a post's page loads no framework for it.
 */
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

const HEART =
  '<svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true"><path d="M12 20s-7.5-4.6-7.5-10A4.3 4.3 0 0112 7.4 4.3 4.3 0 0119.5 10c0 5.4-7.5 10-7.5 10z"/></svg>';

export function mount(host: HTMLElement, { itemId, likeCount = 0 }: LikeButtonProps): void {
  const url = `/api/content/items/${encodeURIComponent(itemId)}/like`;
  const island = document.createElement("span");
  island.className = "like-button-island";
  island.innerHTML = `<button type="button" class="like-button">${HEART}<span class="like-label"></span></button><span class="like-count" aria-live="polite"></span><span class="like-error" role="alert" hidden></span>`;
  const button = island.querySelector("button")!;
  const label = island.querySelector<HTMLElement>(".like-label")!;
  const count = island.querySelector<HTMLElement>(".like-count")!;
  const error = island.querySelector<HTMLElement>(".like-error")!;
  const state = { likeCount, liked: false };
  const show = () => {
    button.classList.toggle("is-liked", state.liked);
    button.setAttribute("aria-pressed", String(state.liked));
    label.textContent = state.liked ? "Liked" : "Like";
    count.textContent = likeText(state.likeCount);
  };
  const take = (a: LikeAnswer) => {
    state.likeCount = a.likeCount;
    state.liked = a.liked;
    show();
  };
  button.addEventListener("click", async () => {
    button.disabled = true;
    error.hidden = true;
    try {
      take(await apiCall<LikeAnswer>(url, { method: state.liked ? "DELETE" : "POST" }));
    } catch (e) {
      error.textContent = (e as Error).message;
      error.hidden = false;
    } finally {
      button.disabled = false;
    }
  });
  show();
  host.replaceChildren(island);
  apiCall<LikeAnswer>(url)
    .then(take)
    .catch(() => {});
}
