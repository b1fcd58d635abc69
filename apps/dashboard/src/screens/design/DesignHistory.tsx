/**
 * The History of the site's design (theme, styles, custom CSS, logo) on each Design screen. A
 * restore loads the design again and opens the screen afresh on it.
 */
import { useQueryClient } from "@tanstack/react-query";
import { type ReactNode, createContext, useContext, useState } from "react";
import { HistoryButton } from "../../components/history/HistoryPanel.js";
import { useSiteId } from "../../components/ui.js";

const Reopen = createContext<() => void>(() => {});

/** Around a Design screen: what a restore calls to open the screen again. */
export function Reopenable({ children }: { children: ReactNode }) {
  const [round, setRound] = useState(0);
  return (
    <Reopen.Provider value={() => setRound((r) => r + 1)}>
      <div key={round} style={{ display: "contents" }}>
        {children}
      </div>
    </Reopen.Provider>
  );
}

export function DesignHistory() {
  const siteId = useSiteId();
  const queryClient = useQueryClient();
  const reopen = useContext(Reopen);
  return (
    <HistoryButton
      entity={`design:${siteId}`}
      label="the design"
      buttonClass="btn"
      write="design.write"
      onRestored={() =>
        void Promise.all([
          queryClient.invalidateQueries({ queryKey: ["design", siteId] }),
          queryClient.invalidateQueries({ queryKey: ["site", siteId] }),
        ]).then(reopen)
      }
    />
  );
}
