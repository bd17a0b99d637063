// Which session a run writes to, from -c / -r / --session / --no-session. In the interactive app `-r`
// starts on a new session with the session picker open; without a picker (print, json, rpc) it takes
// the session used last in this folder, as `-c` does (`sessionsByLastUse`), and names the others, so
// the user can pass `--session <id>`.
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { SessionMode } from "../session/assemble.js";
import { findSession, type SessionInfo, sessionsByLastUse } from "../session/session-store.js";
import type { CliArgs } from "./args.js";

export type SessionChoice =
	| {
			ok: true;
			mode: SessionMode;
			/** For the user: which session was picked. */
			notice?: string;
			/** The interactive app opens the session picker at start. */
			pick?: boolean;
	  }
	| { ok: false; message: string };

export interface SessionContext {
	cwd: string;
	env: Record<string, string | undefined>;
	/** A picker can be shown (the interactive app). */
	interactive?: boolean;
}

type SessionFlags = Pick<CliArgs, "continue" | "resume" | "session" | "noSession"> & Partial<Pick<CliArgs, "fork">>;

export function chooseSessionMode(args: SessionFlags, context: SessionContext): SessionChoice {
	const given = [
		args.continue && "--continue",
		args.resume && "--resume",
		args.session !== undefined && "--session",
		args.noSession && "--no-session",
	].filter((flag): flag is string => typeof flag === "string");
	if (given.length > 1) return { ok: false, message: `${given.join(" and ")} cannot be used together` };
	if (args.fork && (given.length === 0 || args.noSession)) return { ok: false, message: "--fork needs -c, -r or --session" };
	const choice = chooseWithoutFork(args, context);
	if (!args.fork || !choice.ok || (choice.mode.kind !== "continue" && choice.mode.kind !== "file")) return choice;
	return { ...choice, mode: { ...choice.mode, fork: true } };
}

function chooseWithoutFork(args: SessionFlags, context: SessionContext): SessionChoice {
	if (args.noSession) return { ok: true, mode: { kind: "none" } };
	if (args.continue) return { ok: true, mode: { kind: "continue" } };
	if (args.session !== undefined) return sessionByFileOrId(args.session, context);
	if (args.resume) {
		const sessions = sessionsByLastUse(context.cwd, context.env);
		if (context.interactive && sessions.length > 0) return { ok: true, mode: { kind: "new" }, pick: true };
		return lastUsedOf(sessions, context.cwd);
	}
	return { ok: true, mode: { kind: "new" } };
}

function sessionByFileOrId(value: string, context: SessionContext): SessionChoice {
	const looksLikePath = value.includes("/") || value.includes("\\") || value.endsWith(".jsonl");
	if (looksLikePath) {
		const path = resolve(context.cwd, value);
		if (!existsSync(path)) return { ok: false, message: `session file not found: ${path}` };
		return { ok: true, mode: { kind: "file", path } };
	}
	try {
		return { ok: true, mode: { kind: "file", path: findSession(context.cwd, value, context.env).path } };
	} catch (error) {
		return { ok: false, message: error instanceof Error ? error.message : String(error) };
	}
}

function lastUsedOf(sessions: SessionInfo[], cwd: string): SessionChoice {
	const [latest, ...older] = sessions;
	if (!latest) return { ok: false, message: `no session to resume in ${resolve(cwd)} (start one without --resume)` };
	const others = older.slice(0, 5).map(describe);
	const notice =
		`Resumed the session used last ${describe(latest)}` +
		(others.length > 0 ? `; others: ${others.join("; ")} (pick one with --session <id>, or run rudder -r in a terminal to choose)` : "");
	return { ok: true, mode: { kind: "file", path: latest.path }, notice };
}

function describe(session: SessionInfo): string {
	const first = session.firstMessage.replace(/\s+/g, " ").slice(0, 40);
	return `${session.id.slice(0, 8)} (${session.messageCount} messages${first ? `, "${first}"` : ""})`;
}
