import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { chooseSessionMode } from "../../src/cli/session-choice.js";
import { sessionsDir } from "../../src/session/session-store.js";

const dirs: string[] = [];
afterEach(() => {
	for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function context() {
	const root = mkdtempSync(join(tmpdir(), "rudder-session-choice-"));
	dirs.push(root);
	return { cwd: root, env: { RUDDER_HOME: join(root, "home") } };
}

const none = { continue: false, resume: false, session: undefined, noSession: false };

describe("chooseSessionMode", () => {
	it("maps the flags to session modes", () => {
		const ctx = context();
		expect(chooseSessionMode(none, ctx)).toEqual({ ok: true, mode: { kind: "new" } });
		expect(chooseSessionMode({ ...none, continue: true }, ctx)).toEqual({ ok: true, mode: { kind: "continue" } });
		expect(chooseSessionMode({ ...none, noSession: true }, ctx)).toEqual({ ok: true, mode: { kind: "none" } });
	});

	it("--session with a path uses that file, relative to the cwd, and refuses a missing one", () => {
		const ctx = context();
		writeFileSync(join(ctx.cwd, "saved.jsonl"), "");
		expect(chooseSessionMode({ ...none, session: "saved.jsonl" }, ctx)).toEqual({
			ok: true,
			mode: { kind: "file", path: join(ctx.cwd, "saved.jsonl") },
		});
		expect(chooseSessionMode({ ...none, session: "./gone.jsonl" }, ctx)).toEqual({
			ok: false,
			message: `session file not found: ${join(ctx.cwd, "gone.jsonl")}`,
		});
	});

	it("--session with an id and -r with no sessions fail with one clear line", () => {
		const ctx = context();
		const byId = chooseSessionMode({ ...none, session: "abc123" }, ctx);
		expect(byId).toMatchObject({ ok: false, message: expect.stringContaining('"abc123"') });
		expect(chooseSessionMode({ ...none, resume: true }, ctx)).toEqual({
			ok: false,
			message: `no session to resume in ${ctx.cwd} (start one without --resume)`,
		});
	});

	it("-r in the interactive app starts a new session with the picker open; elsewhere it takes the latest", () => {
		const ctx = context();
		const dir = sessionsDir(ctx.cwd, ctx.env);
		mkdirSync(dir, { recursive: true });
		const header = { type: "session", id: "1234abcd-0000", cwd: ctx.cwd, timestamp: new Date().toISOString(), version: 1 };
		writeFileSync(join(dir, "a_1234abcd.jsonl"), `${JSON.stringify(header)}\n`);
		expect(chooseSessionMode({ ...none, resume: true }, { ...ctx, interactive: true })).toEqual({
			ok: true,
			mode: { kind: "new" },
			pick: true,
		});
		expect(chooseSessionMode({ ...none, resume: true }, ctx)).toMatchObject({
			ok: true,
			mode: { kind: "file", path: join(dir, "a_1234abcd.jsonl") },
			notice: expect.stringContaining("1234abcd"),
		});
		// No session at all: the same clear error in both.
		const empty = context();
		expect(chooseSessionMode({ ...none, resume: true }, { ...empty, interactive: true })).toMatchObject({ ok: false });
	});

	it("refuses flags that contradict each other", () => {
		expect(chooseSessionMode({ ...none, continue: true, noSession: true }, context())).toEqual({
			ok: false,
			message: "--continue and --no-session cannot be used together",
		});
	});
});
