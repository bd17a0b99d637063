// A desktop notification when a long run ends, for the user who switched away: OSC 9 (iTerm2, kitty,
// WezTerm, foot, Ghostty), OSC 777 (urxvt, Konsole, VTE terminals) or the terminal bell, as the
// `notifications` setting says; off unless the setting is there. The text is ours plus the folder's
// name, which a cloned repository chooses: every control character and the field separator go, so it
// can neither end the sequence early nor write to the terminal.
import { basename } from "node:path";
import { useEffect } from "react";
import type { NotificationSettings } from "../../session/settings.js";
import type { AgentSessionApi } from "../../session/types.js";

export type NotificationMethod = NonNullable<NotificationSettings["method"]>;

const MAX_TEXT = 120;

/** Printable text only: C0, DEL and C1 controls (ESC, BEL, ST among them) and `;` become spaces. */
export function notificationText(text: string): string {
	return [...text.replace(/[\x00-\x1f\x7f-\x9f;\s]+/g, " ").trim()].slice(0, MAX_TEXT).join("");
}

/** The bytes that ask the terminal to notify. */
export function notificationSequence(method: NotificationMethod, text: string): string {
	const safe = notificationText(text);
	if (method === "bell") return "\x07";
	if (method === "osc777") return `\x1b]777;notify;Rudder;${safe}\x07`;
	return `\x1b]9;${safe}\x07`;
}

/** What the notification says: how the run ended, how long it took, and where. */
export function runEndedText(seconds: number, cwd: string): string {
	return `Rudder: the run in ${basename(cwd) || cwd} ended after ${Math.round(seconds)} s`;
}

/** Notifies through `write` when a run of at least `settings.afterSeconds` ends; nothing without settings. */
export function useRunNotification(
	session: AgentSessionApi,
	settings: NotificationSettings | undefined,
	write: (data: string) => void,
	now: () => number = Date.now,
) {
	useEffect(() => {
		const after = settings?.afterSeconds;
		if (after === undefined) return;
		let startedAt: number | undefined;
		return session.subscribe((event) => {
			if (event.type === "agent_start") startedAt = now();
			if (event.type !== "agent_end" || startedAt === undefined) return;
			const seconds = (now() - startedAt) / 1000;
			startedAt = undefined;
			if (seconds >= after) write(notificationSequence(settings?.method ?? "osc9", runEndedText(seconds, session.getState().cwd)));
		});
	}, [session, settings, write, now]);
}
