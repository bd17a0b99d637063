// Keyboard modes that let the terminal tell Shift+Enter from Enter. At start the app asks for both
// protocols a terminal may speak, and every terminal ignores the one it does not know:
// - the kitty keyboard protocol (kitty, WezTerm, foot, Ghostty, iTerm2): `CSI > 1 u` pushes the
//   "disambiguate" flag; keys with modifiers then arrive as `CSI code ; mods u`. `CSI ? u` asks which
//   flags are on; a terminal that speaks the protocol answers `CSI ? flags u`.
// - xterm's modifyOtherKeys (xterm, tmux with extended-keys): `CSI > 4 ; 1 m`; Shift+Enter then arrives as
//   `CSI 27 ; 2 ; 13 ~`, while Ctrl+C and the other well-known keys stay as they were.
// Both are restored when the app ends, also when it crashes (the process's exit event), so the shell
// afterwards gets plain keys again. key-map.ts decodes both forms.

export const KITTY_PUSH = "\x1b[>1u";
export const KITTY_POP = "\x1b[<u";
export const KITTY_QUERY = "\x1b[?u";
export const MODIFY_OTHER_KEYS_ON = "\x1b[>4;1m";
/** Back to the terminal's initial modifyOtherKeys setting. */
export const MODIFY_OTHER_KEYS_OFF = "\x1b[>4m";

/** The terminal's answer to KITTY_QUERY: it speaks the kitty protocol with these flags. */
export function kittyFlagsReply(raw: string): number | undefined {
	const match = /^\x1b\[\?(\d+)u$/.exec(raw);
	return match ? Number(match[1]) : undefined;
}

interface Terminal {
	write(data: string): unknown;
}

/**
 * Switches the modes on; the returned function switches them off (once, however often it is called).
 * `onExit` registers a last-chance restore for a crash; it is removed by the normal restore.
 */
export function enableKeyboardModes(
	out: Terminal,
	onExit: { once(event: "exit", listener: () => void): unknown; off(event: "exit", listener: () => void): unknown } = process,
): () => void {
	out.write(KITTY_PUSH + MODIFY_OTHER_KEYS_ON + KITTY_QUERY);
	let restored = false;
	const restore = () => {
		if (restored) return;
		restored = true;
		onExit.off("exit", restore);
		out.write(KITTY_POP + MODIFY_OTHER_KEYS_OFF);
	};
	onExit.once("exit", restore);
	return restore;
}
