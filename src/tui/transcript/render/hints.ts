// What rendered history says about keys, taken from the key table (key-hints.ts) so it names the keys
// the user has. Passed down to the pure renderers; the defaults when nobody passes it.
import { keyLabel } from "../../keys/key-hints.js";
import { DEFAULT_KEY_BINDINGS } from "../../keys/keybindings.js";

/** What history rows say about keys; from the key table (key-hints.ts), so it names the user's keys. */
export interface RenderHints {
	/** The key that prints a collapsed item in full ("Ctrl+O"); no hint when unbound. */
	expandKey?: string;
	/** The key that recalls the previous input ("↑"), named under a prompt that failed; no hint when unbound. */
	recallKey?: string;
}

export const DEFAULT_HINTS: RenderHints = {
	expandKey: keyLabel(DEFAULT_KEY_BINDINGS, "toggleToolOutput"),
	recallKey: keyLabel(DEFAULT_KEY_BINDINGS, "historyUp"),
};

/** " (Ctrl+O to expand)", or nothing when no key expands. */
export const expandHint = (hints: RenderHints): string => (hints.expandKey ? ` (${hints.expandKey} to expand)` : "");
