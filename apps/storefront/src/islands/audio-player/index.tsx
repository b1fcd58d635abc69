/**
 * Island `audio-player`: plays an album (up to 60 tracks, SPEC §9) or a single track, taking
 * over the server-rendered list (the audio-player formatter's markup with native `<audio>`
 * fallbacks). One `<audio>` element: play/pause, previous/next, a seek bar with times, and the
 * track list as buttons; it moves on to the next track when one ends.
 *
 * Props: { title?, artist?, tracks: [{ id, number?, title, artist?, url, duration? }] }.
 */
import { useEffect, useRef, useState } from "react";
import "./audio-player.css";

export interface Track {
  id: string;
  number?: number;
  title: string;
  artist?: string;
  url: string;
  duration?: number;
}

export interface AudioPlayerProps {
  title?: string;
  artist?: string;
  tracks?: Track[];
}

/** "m:ss" for a number of seconds (blank when unknown). */
export function formatTime(seconds: number | undefined): string {
  if (seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return "–:––";
  const s = Math.floor(seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

export default function AudioPlayer({ title, artist, tracks = [] }: AudioPlayerProps) {
  const playable = tracks.filter((t) => typeof t.url === "string" && t.url !== "").slice(0, 60);
  const audio = useRef<HTMLAudioElement>(null);
  const [current, setCurrent] = useState(0);
  const [playing, setPlaying] = useState(false);
  const [time, setTime] = useState(0);
  const [duration, setDuration] = useState<number | undefined>(playable[0]?.duration);
  const [error, setError] = useState<string | null>(null);
  const wantPlay = useRef(false);
  const track = playable[current];

  useEffect(() => {
    const el = audio.current;
    if (!el || !track) return;
    setTime(0);
    setDuration(track.duration);
    setError(null);
    if (wantPlay.current) {
      el.play().catch(() => setPlaying(false));
    }
  }, [track]);

  if (!track) return <p className="audio-empty">No tracks to play yet.</p>;

  const toggle = () => {
    const el = audio.current!;
    if (el.paused) {
      wantPlay.current = true;
      el.play().catch(() => setError("This track could not be played."));
    } else {
      wantPlay.current = false;
      el.pause();
    }
  };
  const go = (i: number) => {
    wantPlay.current = true;
    if (i === current) {
      audio.current?.play().catch(() => setError("This track could not be played."));
      return;
    }
    setCurrent(i);
  };
  const many = playable.length > 1;

  return (
    <div className="audio-player">
      {/* biome-ignore lint/a11y/useMediaCaption: music tracks have no captions */}
      <audio
        ref={audio}
        src={track.url}
        preload="metadata"
        onPlay={() => setPlaying(true)}
        onPause={() => setPlaying(false)}
        onTimeUpdate={(e) => setTime(e.currentTarget.currentTime)}
        onLoadedMetadata={(e) => setDuration(e.currentTarget.duration)}
        onEnded={() => {
          if (current + 1 < playable.length) go(current + 1);
          else wantPlay.current = false;
        }}
        onError={() => setError("This track could not be played.")}
      />
      <div className="audio-now">
        <button
          type="button"
          className="audio-play"
          onClick={toggle}
          aria-label={playing ? `Pause ${track.title}` : `Play ${track.title}`}
        >
          <span aria-hidden="true">{playing ? "❚❚" : "▶"}</span>
        </button>
        <div className="audio-meta">
          <strong>{track.title}</strong>
          <span>{track.artist || artist || title || ""}</span>
        </div>
        {many && (
          <div className="audio-skip">
            <button
              type="button"
              aria-label="Previous track"
              disabled={current === 0}
              onClick={() => go(current - 1)}
            >
              <span aria-hidden="true">⏮</span>
            </button>
            <button
              type="button"
              aria-label="Next track"
              disabled={current + 1 >= playable.length}
              onClick={() => go(current + 1)}
            >
              <span aria-hidden="true">⏭</span>
            </button>
          </div>
        )}
      </div>
      <label className="audio-seek">
        <span className="visually-hidden">Position in {track.title}</span>
        <input
          type="range"
          className="audio-progress"
          min={0}
          max={duration && Number.isFinite(duration) ? duration : 0}
          step={0.1}
          value={Math.min(time, duration ?? time)}
          onChange={(e) => {
            const el = audio.current!;
            el.currentTime = Number(e.currentTarget.value);
            setTime(el.currentTime);
          }}
        />
      </label>
      <div className="audio-times">
        <span>{formatTime(time)}</span>
        <span>{formatTime(duration)}</span>
      </div>
      {error && (
        <p className="audio-error" role="alert">
          {error}
        </p>
      )}
      {many && (
        <ol className="audio-tracks" aria-label={title ? `Tracks of ${title}` : "Tracks"}>
          {playable.map((t, i) => (
            <li key={t.id}>
              <button type="button" aria-current={i === current ? "true" : undefined} onClick={() => go(i)}>
                <span className="track-number">{t.number ?? i + 1}</span>
                <span className="track-title">{t.title}</span>
                <span className="track-duration">{formatTime(t.duration)}</span>
              </button>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
