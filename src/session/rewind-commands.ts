// `/rewind`, `/undo`, `/branch`, `/tree` and `/fork` as text commands, the same in every mode. The
// interactive app opens a menu for a bare `/rewind` (and Esc twice); these are what it and the other
// modes fall back on: a numbered list, then `/rewind <n> [both|code|conversation]`. A code restore
// that would change files first shows them, and the files changed outside Rudder since, and asks for
// `yes` at the end of the command.
import { createHash } from "node:crypto";
import { formatChange } from "./checkpoints/rewind-plan.js";
import type { RestoreWhat, RewindPoint, RewindResult, SessionRewind } from "./rewind.js";
import type { SessionInfo } from "./session-store.js";
import type { CommandUiRequest, SlashCommandInfo } from "./types.js";

/** What these commands need from the session. */
export interface RewindCommandHost {
	notify(level: "info" | "warning" | "error", text: string): void;
	readonly rewind: SessionRewind;
	rewindTo(entryId: string, restore: RestoreWhat): Promise<RewindResult>;
	undo(): Promise<RewindResult>;
	switchBranch(leafId: string): void;
	forkAt(entryId: string): Promise<{ text: string }>;
	getState(): { sessionId: string; sessionFile?: string };
	listSessions(): SessionInfo[];
}

/**
 * `session 1a2b3c4d (12 messages)`: the open session, its messages counted as every listing counts
 * them (the messages on its current branch, `SessionInfo.messageCount`).
 */
export function describeOpenSession(s: Pick<RewindCommandHost, "getState" | "listSessions">): string {
	const { sessionId, sessionFile } = s.getState();
	const count = sessionFile ? s.listSessions().find((info) => info.path === sessionFile)?.messageCount : undefined;
	return `session ${sessionId.slice(0, 8)}${count === undefined ? "" : ` (${count} ${count === 1 ? "message" : "messages"})`}`;
}

export interface RewindCommand extends SlashCommandInfo {
	/** A bare `/rewind` from a UI that has the menu (`context.ui`) asks for it instead of listing. */
	run(session: RewindCommandHost, args: string, context: { ui: boolean }): Promise<void | { ui: CommandUiRequest }> | void;
}

const RESTORES: readonly RestoreWhat[] = ["both", "code", "conversation"];
const oneLine = (text: string, max = 60) => {
	const flat = text.replace(/\s+/g, " ").trim();
	return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

/** `  2. "fix the test"  +12 −3 src/a.ts, +1 −0 b.ts` */
export function describePoint(point: RewindPoint, n: number): string {
	const files = point.checkpoint ? point.changes.map(formatChange).join(", ") || "no file changes" : "conversation only (no checkpoint)";
	return `${String(n).padStart(3)}. "${oneLine(point.text)}"  ${files}`;
}

export function describeResult(result: RewindResult): string {
	const what = { both: "Code and conversation", code: "Code", conversation: "Conversation" }[result.restore];
	const files = result.files.length ? `; files: ${result.files.map((f) => `${f.status} ${f.path}`).join(", ")}` : "";
	return `${what} restored to before "${oneLine(result.prompt, 40)}"${files}`;
}

async function pointAt(s: RewindCommandHost, arg: string | undefined): Promise<RewindPoint | undefined> {
	const points = await s.rewind.points();
	if (points.length === 0) {
		s.notify("info", "No prompts to go back to in this session yet");
		return undefined;
	}
	const n = arg === undefined ? 1 : Number(arg);
	const point = Number.isInteger(n) && n >= 1 ? points[n - 1] : undefined;
	if (!point) s.notify("error", `No prompt ${arg} (1 is the newest; /rewind lists them)`);
	return point;
}

/** A short name for a restore plan: which files, and what happens to each. */
export function planToken(changes: readonly { path: string; status: string; added: number; removed: number }[]): string {
	const text = changes.map((c) => `${c.status}:${c.added}:${c.removed}:${c.path}`).join("\0");
	return createHash("sha256").update(text).digest("hex").slice(0, 6);
}

const fail = (s: RewindCommandHost, error: unknown) => s.notify("error", error instanceof Error ? error.message : String(error));

export const rewindCommands: readonly RewindCommand[] = [
	{
		name: "rewind",
		description: "Go back to before a prompt: code, conversation or both",
		args: "[n] [both|code|conversation]",
		run: async (s, args, context) => {
			const [nArg, modeArg = "both", confirm] = args.split(/\s+/).filter(Boolean);
			if (nArg === undefined && context.ui) return { ui: "rewind-menu" };
			if (nArg === undefined) {
				const points = await s.rewind.points();
				if (points.length === 0) return s.notify("info", "No prompts to go back to in this session yet");
				const lines = points.slice(0, 30).map((p, i) => describePoint(p, i + 1));
				return s.notify("info", `Prompts, newest first (restore with /rewind <n> [both|code|conversation]):\n${lines.join("\n")}`);
			}
			const restore = modeArg as RestoreWhat;
			if (!RESTORES.includes(restore)) return s.notify("error", `/rewind: "${modeArg}" is not one of ${RESTORES.join(", ")}`);
			const point = await pointAt(s, nArg);
			if (!point) return;
			try {
				if (restore !== "conversation") {
					// The confirmation names the plan it was shown: if the files changed since, that `yes-…` no longer matches.
					const plan = await s.rewind.preview(point.entryId);
					const token = `yes-${planToken(plan.changes)}`;
					if (plan.changes.length > 0 && confirm !== token) {
						const outside = plan.changedOutside.length ? `\nChanged outside Rudder since then: ${plan.changedOutside.join(", ")}` : "";
						const rows = plan.changes.map(
							(c) => `  ${c.status === "added" ? "restore" : c.status === "deleted" ? "delete " : "revert "} ${c.path}`,
						);
						const stale = confirm?.startsWith("yes") ? "The files changed since that preview; nothing was restored.\n" : "";
						return s.notify(
							"warning",
							`${stale}This restore would change:\n${rows.join("\n")}${outside}\nTo go ahead: /rewind ${nArg} ${restore} ${token}`,
						);
					}
				}
				s.notify("info", describeResult(await s.rewindTo(point.entryId, restore)));
			} catch (error) {
				fail(s, error);
			}
		},
	},
	{
		name: "undo",
		description: "Restore code and conversation to just before the last prompt",
		run: async (s) => {
			try {
				const last = (await s.rewind.points()).find((p) => p.checkpoint);
				if (!last) return s.notify("info", "Nothing to undo: no prompt of this branch has a checkpoint");
				const plan = await s.rewind.preview(last.entryId);
				if (plan.changedOutside.length > 0) {
					return s.notify(
						"warning",
						`Not undone: ${plan.changedOutside.join(", ")} changed outside Rudder since that prompt. Review with /rewind 1 code, then confirm there.`,
					);
				}
				s.notify("info", describeResult(await s.undo()));
			} catch (error) {
				fail(s, error);
			}
		},
	},
	{
		name: "branch",
		description: "Start a new branch of the conversation before a prompt (files untouched)",
		args: "[n]",
		run: async (s, args) => {
			const point = await pointAt(s, args.trim() || undefined);
			if (!point) return;
			try {
				await s.rewindTo(point.entryId, "conversation");
				s.notify("info", `New branch before "${oneLine(point.text, 40)}" (the old one is kept: /tree)`);
			} catch (error) {
				fail(s, error);
			}
		},
	},
	{
		name: "tree",
		description: "List the branches of this session, or switch to one",
		args: "[n]",
		run: (s, args) => {
			const branches = s.rewind.branches();
			if (branches.length === 0) return s.notify("info", "This session has no branches yet");
			const arg = args.trim();
			if (!arg) {
				const lines = branches.map(
					(b, i) =>
						`${b.current ? "*" : " "}${String(i + 1).padStart(3)}. ${b.timestamp.slice(0, 16).replace("T", " ")}  ${b.messageCount} messages  "${oneLine(b.text) || "(no prompt)"}"`,
				);
				return s.notify("info", `Branches, newest first (* is where you are; switch with /tree <n>):\n${lines.join("\n")}`);
			}
			const branch = branches[Number(arg) - 1];
			if (!branch) return s.notify("error", `No branch ${arg} (/tree lists them)`);
			try {
				s.switchBranch(branch.leafId);
				s.notify("info", `On the branch "${oneLine(branch.text, 40)}"`);
			} catch (error) {
				fail(s, error);
			}
		},
	},
	{
		name: "fork",
		description: "Continue in a new session file holding this branch up to a prompt",
		args: "[n]",
		run: async (s, args) => {
			const point = await pointAt(s, args.trim() || undefined);
			if (!point) return;
			try {
				await s.forkAt(point.entryId);
				s.notify("info", `Forked before "${oneLine(point.text, 40)}" into ${describeOpenSession(s)}`);
			} catch (error) {
				fail(s, error);
			}
		},
	},
];
